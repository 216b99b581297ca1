package kafka

import "context"

// WaitInSync exposes waitInSync to the package's external tests.
func (c *Cluster) WaitInSync(ctx context.Context) error { return c.waitInSync(ctx) }
