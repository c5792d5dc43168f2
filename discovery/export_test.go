package discovery

import "github.com/vera-run/vera/internal/redact"

// ContainsIdentifierForTest exposes the identifier check to tests.
func ContainsIdentifierForTest(s string) bool {
	_, secret := redact.FindSecret(s)
	return secret || redact.ContainsIdentifier(s)
}
