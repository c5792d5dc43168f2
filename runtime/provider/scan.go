package provider

import (
	"strconv"
	"strings"

	"github.com/vera-run/vera/internal/redact"
)

// disabledRules switches single content and consistency rules off. Only
// the mutation tests set it: they show each smoke fails without its rule.
var disabledRules map[Code]bool

func on(c Code) bool { return !disabledRules[c] }

// memberPath appends a member to a path in the notation of
// redact.Finding.Path (so findings of redact.ScanJSON line up).
func memberPath(base, name string) string {
	simple := name != ""
	for i := 0; i < len(name) && simple; i++ {
		c := name[i]
		letter := 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_'
		simple = letter || i > 0 && ('0' <= c && c <= '9' || c == '-')
	}
	switch {
	case !simple:
		return base + "[" + strconv.Quote(name) + "]"
	case base == "":
		return name
	}
	return base + "." + name
}

func indexPath(base string, i int) string { return base + "[" + strconv.Itoa(i) + "]" }

// words splits a member name or value into lower-case words at every
// non-alphanumeric byte and at lower-to-upper case changes
// ("createUserGate" -> create user gate).
func words(s string) []string {
	var out []string
	var b strings.Builder
	flush := func() {
		if b.Len() > 0 {
			out = append(out, b.String())
			b.Reset()
		}
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'A' <= c && c <= 'Z':
			if i > 0 && 'a' <= s[i-1] && s[i-1] <= 'z' {
				flush()
			}
			b.WriteByte(c + 'a' - 'A')
		case 'a' <= c && c <= 'z' || '0' <= c && c <= '9':
			b.WriteByte(c)
		default:
			flush()
		}
	}
	flush()
	return out
}

// mutationVerbs are the verbs of a host-state mutation; inflections
// (-s, -d/-ed, -ing) are matched too.
var mutationVerbs = []string{
	"complete", "create", "update", "delete", "close", "assign", "unassign",
	"approve", "reject", "reopen", "resolve", "cancel", "grant", "revoke",
	"open", "accept", "dismiss", "archive", "consume", "spend", "transition",
	"mark", "modify", "remove", "advance", "promote", "write", "charge",
}

// hostObjects are the objects a provider never mutates: the host's todos,
// gates, goals, users, quota, evidence and approvals.
var hostObjects = map[string]bool{
	"todo": true, "todos": true, "gate": true, "gates": true, "goal": true, "goals": true,
	"user": true, "users": true, "quota": true, "quotas": true, "evidence": true,
	"approval": true, "approvals": true, "task": true, "tasks": true, "kernel": true,
}

// decisionWords name a decision or command member by themselves.
var decisionWords = map[string]bool{
	"writeback": true, "decision": true, "decisions": true, "command": true, "commands": true,
	"directive": true, "reducer": true, "kernel": true,
}

var verbForms = func() map[string]bool {
	m := map[string]bool{}
	for _, v := range mutationVerbs {
		m[v], m[v+"s"] = true, true
		if strings.HasSuffix(v, "e") {
			m[v+"d"], m[v[:len(v)-1]+"ing"] = true, true
		} else {
			m[v+"ed"], m[v+"ing"] = true, true
		}
	}
	m["written"], m["wrote"], m["opened"], m["opening"] = true, true, true, true
	return m
}()

// writebackShaped is the structural writeback rule: a name or value is
// writeback-shaped when its words contain a decision word (writeback,
// decision, command, directive, reducer, kernel, or "write" followed by
// "back"), or a mutation verb together with a host object (complete_todo,
// create_user_gate, gateClosed, "assign the todo").
func writebackShaped(s string) bool {
	ws := words(s)
	verb, object := false, false
	for i, w := range ws {
		if decisionWords[w] || w == "write" && i+1 < len(ws) && ws[i+1] == "back" {
			return true
		}
		verb = verb || verbForms[w]
		object = object || hostObjects[w]
	}
	return verb && object
}

// secretMemberCode classifies a member name that holds a secret by its
// nature, whatever its value's shape: cookie, credential or token words.
func secretMemberCode(name string) Code {
	ws := words(name)
	for i, w := range ws {
		switch w {
		case "cookie", "cookies", "setcookie":
			return CodeCookie
		case "password", "passwd", "passphrase", "credential", "credentials", "secret", "secrets", "apikey", "privatekey":
			return CodeCredential
		case "token", "tokens", "sessionid", "jwt", "bearer":
			return CodeSessionToken
		case "api", "private":
			if i+1 < len(ws) && ws[i+1] == "key" {
				return CodeCredential
			}
		}
	}
	return ""
}

// imageShaped reports raw image bytes in a string: a data: URL with
// base64 content or an image media type, the base64 signature of a PNG,
// JPEG, GIF, WebP or SVG file, the raw magic bytes of one, or a base64
// run of 200 or more characters (raw bytes of some kind).
func imageShaped(s string) bool {
	lower := strings.ToLower(s)
	if i := strings.Index(lower, "data:"); i >= 0 {
		rest := lower[i:]
		if strings.HasPrefix(rest, "data:image/") || strings.Contains(rest, ";base64,") {
			return true
		}
	}
	for _, sig := range []string{"iVBORw0KGgo", "/9j/4", "R0lGODlh", "R0lGODdh", "UklGR", "PHN2Zy", "\x89PNG", "\xff\xd8\xff", "GIF89a", "GIF87a"} {
		if strings.Contains(s, sig) {
			return true
		}
	}
	run := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '+' || c == '/' || c == '=' || c == '-' || c == '_' {
			run++
			if run >= 200 {
				return true
			}
		} else {
			run = 0
		}
	}
	return false
}

// markupShaped reports HTML or XML markup: "<" followed by a letter, "/",
// "!" or "?".
func markupShaped(s string) bool {
	for i := 0; i+1 < len(s); i++ {
		if s[i] == '<' {
			c := s[i+1]
			if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '/' || c == '!' || c == '?' {
				return true
			}
		}
	}
	return false
}

// secretCode maps a redact secret kind onto a problem code.
func secretCode(kind string) Code {
	switch kind {
	case redact.SecretCookie:
		return CodeCookie
	case redact.SecretJWT, redact.SecretBearer, redact.SecretHighEntropy:
		return CodeSessionToken
	}
	return CodeCredential
}
