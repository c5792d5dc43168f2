package redact

import "strings"

// CredentialQueryName reports whether name is a query parameter name that
// carries credentials (token, access_token, session_id, sig, code, ...):
// the same names the URL detector of [FindSecret] treats as credential
// parameters, compared case-insensitively.
func CredentialQueryName(name string) bool {
	l := strings.ToLower(name)
	if isCredentialName(l) {
		return true
	}
	for _, n := range queryOnlyNames {
		if l == n {
			return true
		}
	}
	return false
}
