package redact

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"strings"
)

// Finding is one secret-shaped string found by [ScanJSON]. It never holds
// the secret itself.
type Finding struct {
	// Path locates the string: object members as ".name" (without the dot
	// at the root), or as ["name"] (a Go-quoted string) unless the name is
	// a letter or "_" followed by letters, digits, "_" and "-"; array
	// elements as "[i]", e.g.
	// "milestones[1].actions[0].value". The root value's path is "". An
	// object member name that is itself secret-shaped is shown as
	// [⟦redacted⟧].
	Path string `json:"path"`
	// Kind is one of the secret kinds (see [SecretKinds]).
	Kind string `json:"kind"`
	// InKey is true when the secret is the member name at Path rather than
	// the string value there.
	InKey bool `json:"in_key,omitempty"`
}

// credentialKeys are JSON member names (lower-cased, '-' read as '_') whose
// non-placeholder string value is itself reported as [SecretCredentialField].
var credentialKeys = map[string]bool{
	"password": true, "passwd": true, "pwd": true, "passphrase": true,
	"secret": true, "client_secret": true, "api_key": true, "apikey": true,
	"x_api_key": true, "access_token": true, "refresh_token": true,
	"id_token": true, "auth_token": true, "token": true, "session_token": true,
	"sessionid": true, "session_id": true, "cookie": true, "set_cookie": true,
	"authorization": true, "proxy_authorization": true, "private_key": true,
	"aws_secret_access_key": true, "credentials": true,
}

func isCredentialKey(key string) bool {
	return credentialKeys[strings.ReplaceAll(asciiLower(key), "-", "_")]
}

// frame is one open container while walking a JSON document.
type frame struct {
	path    string
	array   bool
	index   int
	key     string // pending member name (objects)
	keyPath string // path segment for the pending member
	wantKey bool
}

// ScanJSON walks every member name and string value of the JSON document raw
// and returns a [Finding] for each one that is secret-shaped ([FindSecret]),
// in document order, with its path and kind. A string value under a
// credential-named member ("password", "token", "authorization",
// "cookie", ... see the package documentation) is reported as
// [SecretCredentialField] unless it is a placeholder. Numbers, booleans and
// null are not inspected. Each string yields at most one finding.
//
// If raw is not a single valid JSON value, ScanJSON falls back to
// [FindSecret] on the whole input and reports at most one finding with path
// "": the caller's own parser reports the syntax error, and an invalid
// document is still checked for secrets.
func ScanJSON(raw []byte) []Finding {
	findings, err := scanJSON(raw)
	if err == nil {
		return findings
	}
	if kind, ok := FindSecret(string(raw)); ok {
		return []Finding{{Path: "", Kind: kind}}
	}
	return nil
}

var errTrailing = errors.New("redact: data after the JSON value")

func scanJSON(raw []byte) ([]Finding, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var (
		findings []Finding
		stack    []frame
	)
	// valuePath returns the path of the value about to be read and advances
	// the enclosing container.
	valuePath := func() (path, key string) {
		if len(stack) == 0 {
			return "", ""
		}
		top := &stack[len(stack)-1]
		if top.array {
			p := top.path + "[" + strconv.Itoa(top.index) + "]"
			top.index++
			return p, ""
		}
		top.wantKey = true
		return top.path + top.keyPath, top.key
	}
	done := false
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			if !done {
				return nil, io.ErrUnexpectedEOF
			}
			return findings, nil
		}
		if err != nil {
			return nil, err
		}
		if done {
			return nil, errTrailing
		}
		// A member name?
		if len(stack) > 0 && !stack[len(stack)-1].array && stack[len(stack)-1].wantKey {
			if d, ok := tok.(json.Delim); ok && d == '}' {
				stack = stack[:len(stack)-1]
				done = len(stack) == 0
				continue
			}
			key, _ := tok.(string)
			top := &stack[len(stack)-1]
			top.wantKey = false
			top.key = key
			if kind, ok := FindSecret(key); ok {
				findings = append(findings, Finding{Path: top.path, Kind: kind, InKey: true})
				top.keyPath = "[" + Marker + "]"
			} else {
				top.keyPath = memberSegment(key)
				if top.path == "" {
					top.keyPath = strings.TrimPrefix(top.keyPath, ".")
				}
			}
			continue
		}
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{', '[':
				p, _ := valuePath()
				stack = append(stack, frame{path: p, array: t == '[', wantKey: t == '{'})
			case ']':
				stack = stack[:len(stack)-1]
				done = len(stack) == 0
			}
		case string:
			p, key := valuePath()
			if kind, ok := FindSecret(t); ok {
				findings = append(findings, Finding{Path: p, Kind: kind})
			} else if key != "" && isCredentialKey(key) && !isPlaceholder(t) {
				findings = append(findings, Finding{Path: p, Kind: SecretCredentialField})
			}
			done = len(stack) == 0
		default:
			valuePath()
			done = len(stack) == 0
		}
	}
}

// memberSegment renders an object member name as a path segment.
func memberSegment(key string) string {
	plain := key != ""
	for i := 0; i < len(key) && plain; i++ {
		c := key[i]
		plain = isLetter(c) || c == '_' || (i > 0 && (isDigit(c) || c == '-'))
	}
	if plain {
		return "." + key
	}
	return "[" + strconv.Quote(key) + "]"
}
