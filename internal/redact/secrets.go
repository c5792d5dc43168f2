package redact

import "strings"

// Secret kinds returned by [FindSecret] and reported in [Finding.Kind], in
// the order FindSecret tries them.
const (
	SecretPrivateKey      = "private_key"           // PEM "-----BEGIN ... PRIVATE KEY-----"
	SecretJWT             = "jwt"                   // eyJ... . ... . ...
	SecretAWSKey          = "aws_access_key"        // AKIA/ASIA + 16
	SecretAPIKey          = "api_key"               // sk-, ghp_, xoxb-, AIza, ... prefixes
	SecretAuthorization   = "authorization_header"  // Authorization: <scheme> <credential>
	SecretCookie          = "cookie_header"         // Cookie: / Set-Cookie: name=value
	SecretURLCredentials  = "url_credentials"       // scheme://user:pass@host
	SecretURLQuery        = "url_query_credential"  // ?access_token=..., #id_token=...
	SecretAssignment      = "credential_assignment" // password=..., token=..., sid=...
	SecretBearer          = "bearer_token"          // Bearer <credential>
	SecretHighEntropy     = "high_entropy_token"    // random-looking base64 of 32+ characters
	SecretCredentialField = "credential_field"      // JSON member "password": "..." (ScanJSON only)
)

// SecretKinds lists the secret kinds in the order [FindSecret] tries them,
// followed by the JSON-only [SecretCredentialField].
func SecretKinds() []string {
	return []string{SecretPrivateKey, SecretJWT, SecretAWSKey, SecretAPIKey,
		SecretAuthorization, SecretCookie, SecretURLCredentials, SecretURLQuery,
		SecretAssignment, SecretBearer, SecretHighEntropy, SecretCredentialField}
}

// FindSecret reports whether s contains credential-shaped content and, if
// so, the kind of the first rule (in the order of [SecretKinds]) that
// matches. It never returns the secret itself. The rules, and what is
// deliberately not flagged (sha256 digests, hexadecimal strings, UUIDs,
// timestamps, semantic versions, query-free URLs, [Marker]), are described
// in the package documentation.
func FindSecret(s string) (kind string, ok bool) {
	if len(s) < 5 {
		return "", false
	}
	lower := asciiLower(s)
	if hasPrivateKey(lower) {
		return SecretPrivateKey, true
	}
	if k := findKnownToken(s); k != "" {
		return k, true
	}
	if hasAuthorizationHeader(s, lower) {
		return SecretAuthorization, true
	}
	if hasCookieHeader(s, lower) {
		return SecretCookie, true
	}
	if k := findURLSecret(s, lower); k != "" {
		return k, true
	}
	if hasAssignment(s, lower) {
		return SecretAssignment, true
	}
	for i := strings.Index(lower, "bearer"); i >= 0; {
		if bs, _ := bearerAt(s, i, 8, true); bs >= 0 {
			return SecretBearer, true
		}
		next := strings.Index(lower[i+1:], "bearer")
		if next < 0 {
			break
		}
		i += 1 + next
	}
	if hasSecretEntropy(s) {
		return SecretHighEntropy, true
	}
	return "", false
}

// hasPrivateKey finds "-----begin <...>private key<...>-----" on one line.
func hasPrivateKey(lower string) bool {
	from := 0
	for {
		i := strings.Index(lower[from:], "-----begin ")
		if i < 0 {
			return false
		}
		i += from + len("-----begin ")
		end := strings.Index(lower[i:], "-----")
		if end >= 0 {
			label := lower[i : i+end]
			if !strings.ContainsAny(label, "\r\n") && strings.Contains(label, "private key") {
				return true
			}
		}
		from = i
	}
}

// findKnownToken returns the kind of the first JWT or known-prefix
// credential in s.
func findKnownToken(s string) string {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !isAlnum(c) || !boundaryBefore(s, i) {
			continue
		}
		if c == 'e' && jwtAt(s, i) > 0 {
			return SecretJWT
		}
		if e, kind := prefixTokenAt(s, i); e > 0 {
			return kind
		}
	}
	return ""
}

// isPlaceholder reports a value that stands for a secret without being one.
func isPlaceholder(v string) bool {
	v = strings.Trim(v, `"' `)
	if v == "" || strings.HasPrefix(v, Marker) {
		return true
	}
	switch strings.ToLower(v) {
	case "null", "nil", "none", "undefined", "true", "false", "redacted", "[redacted]",
		"<redacted>", "(redacted)", "omitted", "***":
		return true
	}
	if strings.HasPrefix(v, "${") || strings.HasPrefix(v, "{{") || strings.HasPrefix(v, "%(") ||
		(v[0] == '<' && v[len(v)-1] == '>') {
		return true
	}
	if v[0] == '$' && len(v) > 1 && (v[1] == '_' || ('A' <= v[1] && v[1] <= 'Z')) {
		return true // $ENV_VAR reference
	}
	masked := true
	for _, r := range v {
		if r != '*' && r != 'x' && r != 'X' && r != '•' && r != '.' {
			masked = false
			break
		}
	}
	return masked
}

// valueAt returns the value starting at i (after optional spaces and one
// optional quote), up to whitespace, a quote or a delimiter.
func valueAt(s string, i int) string {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	if i < len(s) && (s[i] == '"' || s[i] == '\'') {
		i++
	}
	j := i
	for j < len(s) && j-i < maxValueScan {
		switch s[j] {
		case ' ', '\t', '\r', '\n', '"', '\'', '&', ';', ',', '<', '>', ')', ']', '}', '#':
			return s[i:j]
		}
		j++
	}
	return s[i:j]
}

// maxValueScan bounds how far a value or header is read: enough to judge its
// shape, and it keeps every rule linear in the input.
const maxValueScan = 256

// headerValueAt returns the value of a header whose name ends at i: optional
// closing quote and spaces, ':', spaces, optional quote, then the rest of
// the line up to a quote. ok is false if there is no ':'.
func headerValueAt(s string, i int) (string, bool) {
	if i < len(s) && (s[i] == '"' || s[i] == '\'') {
		i++
	}
	for i < len(s) && s[i] == ' ' {
		i++
	}
	if i >= len(s) || s[i] != ':' {
		return "", false
	}
	i++
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	if i < len(s) && (s[i] == '"' || s[i] == '\'') {
		i++
	}
	j := i
	for j < len(s) && j-i < maxValueScan && s[j] != '\n' && s[j] != '\r' && s[j] != '"' && s[j] != '\'' {
		j++
	}
	return strings.TrimSpace(s[i:j]), true
}

var authSchemes = []string{"bearer", "basic", "token", "digest", "negotiate", "ntlm",
	"aws4-hmac-sha256", "apikey", "hoba", "mutual", "vapid", "scram-sha-256", "dpop"}

// hasAuthorizationHeader finds "Authorization: <scheme> <credential>" (or a
// single opaque value of 16+ characters), any case, including
// Proxy-Authorization.
func hasAuthorizationHeader(s, lower string) bool {
	for from := 0; ; {
		k := strings.Index(lower[from:], "authorization")
		if k < 0 {
			return false
		}
		i := from + k
		from = i + 1
		if !boundaryBefore(s, i) {
			continue
		}
		v, ok := headerValueAt(s, i+len("authorization"))
		if !ok || isPlaceholder(v) {
			continue
		}
		scheme, cred, hasCred := strings.Cut(v, " ")
		cred = strings.TrimSpace(cred)
		for _, sc := range authSchemes {
			if strings.EqualFold(scheme, sc) && hasCred && !isPlaceholder(cred) {
				return true
			}
		}
		if !hasCred && len(v) >= 16 {
			return true
		}
	}
}

// hasCookieHeader finds "Cookie:" or "Set-Cookie:" (any case) followed by
// name=value.
func hasCookieHeader(s, lower string) bool {
	for from := 0; ; {
		k := strings.Index(lower[from:], "cookie")
		if k < 0 {
			return false
		}
		i := from + k
		from = i + 1
		if !boundaryBefore(s, i) {
			continue
		}
		v, ok := headerValueAt(s, i+len("cookie"))
		if !ok {
			continue
		}
		name, val, found := strings.Cut(v, "=")
		if !found || name == "" || strings.ContainsAny(name, " \t,") {
			continue
		}
		if val, _, _ = strings.Cut(val, ";"); !isPlaceholder(val) {
			return true
		}
	}
}

// credentialNames are matched as the last segment (after '_', '-' or '.'
// or as the whole name) of an assignment key or query parameter name.
var credentialNames = []string{"password", "passwd", "passphrase", "secret", "token",
	"api_key", "apikey", "api-key", "session", "sessionid", "session_id", "sid",
	"private_key", "credential", "credentials"}

// queryOnlyNames are credential-carrying query parameter names matched as
// the whole (lower-cased) name only.
var queryOnlyNames = []string{"key", "code", "auth", "sig", "signature", "jwt", "ticket",
	"x-amz-signature", "x-amz-credential", "x-amz-security-token", "pwd", "pass"}

// isCredentialName reports whether the lower-cased name ends with a
// credential name at a segment boundary.
func isCredentialName(name string) bool {
	for _, c := range credentialNames {
		if strings.HasSuffix(name, c) {
			p := len(name) - len(c)
			if p == 0 || name[p-1] == '_' || name[p-1] == '-' || name[p-1] == '.' {
				return true
			}
		}
	}
	return false
}

func isKeyChar(c byte) bool { return isAlnum(c) || c == '_' || c == '-' || c == '.' }

// hasAssignment finds "<credential name>=<value>" with a non-placeholder
// value of three or more characters.
func hasAssignment(s, lower string) bool {
	for from := 0; ; {
		k := strings.IndexByte(s[from:], '=')
		if k < 0 {
			return false
		}
		eq := from + k
		from = eq + 1
		e := eq
		for e > 0 && (s[e-1] == ' ' || s[e-1] == '\t') {
			e--
		}
		b := e
		for b > 0 && isKeyChar(s[b-1]) {
			b--
		}
		if b == e || !isCredentialName(lower[b:e]) {
			continue
		}
		if eq+1 < len(s) && s[eq+1] == '=' {
			continue // "==" comparison
		}
		v := valueAt(s, eq+1)
		if len(v) >= 3 && !isPlaceholder(v) {
			return true
		}
	}
}

func isSchemeChar(c byte) bool { return isAlnum(c) || c == '+' || c == '.' || c == '-' }

// findURLSecret inspects every "scheme://..." URL: credentials in the
// userinfo, and credential-shaped query or fragment parameters.
func findURLSecret(s, lower string) string {
	return urlSecret(s, lower, 0)
}

// maxURLNesting bounds the recursion into URLs carried in query values.
const maxURLNesting = 2

func urlSecret(s, lower string, depth int) string {
	for from := 0; ; {
		k := strings.Index(s[from:], "://")
		if k < 0 {
			return ""
		}
		sep := from + k
		from = sep + 3
		a := sep
		for a > 0 && isSchemeChar(s[a-1]) {
			a--
		}
		if sep-a < 2 || !isLetter(s[a]) {
			continue
		}
		end := sep + 3
		for end < len(s) {
			c := s[end]
			if c <= ' ' || c == '"' || c == '\'' || c == '<' || c == '>' || c == '`' || c == '\\' {
				break
			}
			end++
		}
		from = end // a URL nested in this one is checked through its query value
		rest := s[sep+3 : end]
		authEnd := strings.IndexAny(rest, "/?#")
		if authEnd < 0 {
			authEnd = len(rest)
		}
		if at := strings.LastIndexByte(rest[:authEnd], '@'); at >= 0 {
			user, pass, hasPass := strings.Cut(rest[:at], ":")
			if hasPass && pass != "" && !isPlaceholder(pass) {
				return SecretURLCredentials
			}
			if !hasPass && user != "" && (findKnownToken(user) != "" || hasSecretEntropy(user)) {
				return SecretURLCredentials
			}
		}
		params := rest[authEnd:]
		q := strings.IndexAny(params, "?#")
		if q < 0 {
			continue
		}
		qs := sep + 3 + authEnd + q + 1
		if k := queryHasCredential(s[qs:end], lower[qs:end], depth); k != "" {
			return k
		}
	}
}

// queryHasCredential checks the parameters of a query (and fragment) and
// returns the kind found: SecretURLQuery, or the kind of a URL nested in a
// value.
func queryHasCredential(q, lq string, depth int) string {
	for len(q) > 0 {
		i := strings.IndexAny(q, "&;#?")
		part, lpart := q, lq
		if i >= 0 {
			part, lpart = q[:i], lq[:i]
			q, lq = q[i+1:], lq[i+1:]
		} else {
			q, lq = "", ""
		}
		name, val, ok := strings.Cut(lpart, "=")
		if !ok {
			continue
		}
		lval := val
		val = part[len(name)+1:]
		if val == "" || isPlaceholder(val) {
			continue
		}
		if isCredentialName(name) {
			return SecretURLQuery
		}
		for _, n := range queryOnlyNames {
			if name == n {
				return SecretURLQuery
			}
		}
		if findKnownToken(val) != "" || hasSecretEntropy(val) {
			return SecretURLQuery
		}
		if depth < maxURLNesting && strings.Contains(val, "://") {
			if k := urlSecret(val, lval, depth+1); k != "" {
				return k
			}
		}
	}
	return ""
}

// hasSecretEntropy reports a run of base64 characters that passes the
// high-entropy rule with the stricter secret policy (32+ characters, not
// hexadecimal), ignoring subresource-integrity style "sha256-..." runs.
func hasSecretEntropy(s string) bool {
	for i := 0; i < len(s); {
		if !isB64(s[i]) {
			i++
			continue
		}
		end := b64RunEnd(s, i)
		run := s[i:end]
		i = end
		if len(run) < secretEntropy.minLen || isDigestPrefixed(run) {
			continue
		}
		if highEntropy(run, secretEntropy) {
			return true
		}
	}
	return false
}

// isDigestPrefixed reports "sha1-", "sha256-", "sha384-" or "sha512-" at
// the start of run.
func isDigestPrefixed(run string) bool {
	for _, p := range []string{"sha1-", "sha256-", "sha384-", "sha512-"} {
		if strings.HasPrefix(run, p) {
			return true
		}
	}
	return false
}
