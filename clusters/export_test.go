package clusters

// StartEmbeddedExpiring exposes startEmbedded to the external tests, which
// fire the start-up deadline themselves once the child reached a known
// point.
var StartEmbeddedExpiring = startEmbedded
