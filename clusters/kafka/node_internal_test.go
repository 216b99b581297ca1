package kafka

import "testing"

// TestTellingLine: an ERROR line is the one quoted, even when INFO lines
// after it name exceptions (a node shutting down after a failed start).
func TestTellingLine(t *testing.T) {
	for tail, want := range map[string]string{
		"[t] INFO starting\n[t] ERROR [KafkaServer id=0] Fatal error during KafkaServer startup. Prepare to shutdown (kafka.server.KafkaServer)\n[t] INFO expireDelegationTokens: RejectedExecutionException (treated as TimeoutException)\n": "[t] ERROR [KafkaServer id=0] Fatal error during KafkaServer startup. Prepare to shutdown (kafka.server.KafkaServer)",
		"[t] INFO a\n[t] INFO java.net.BindException: Address already in use\n[t] INFO b\n": "[t] INFO java.net.BindException: Address already in use",
		"[t] INFO a\n[t] INFO  last   one\n":                                                "[t] INFO last one",
	} {
		if got := tellingLine(tail); got != want {
			t.Errorf("tellingLine = %q, want %q", got, want)
		}
	}
}
