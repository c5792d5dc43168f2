package convert

import (
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"reflect"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"unicode"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/internal/origin"
	"github.com/vera-run/vera/internal/strictjson"
	"github.com/vera-run/vera/locator"
)

// MaxSourceBytes bounds a source document.
const MaxSourceBytes = 1 << 20

// The source formats.
const (
	// FormatSeed004 is the seed 004 artifact (apps/engine/src/artifact.ts).
	FormatSeed004 = "seed-004-artifact"
	// FormatRecorder is a Chrome DevTools Recorder user flow
	// (@puppeteer/replay Schema.ts).
	FormatRecorder = "devtools-recorder"
)

// Option configures an import.
type Option func(*options)

type options struct {
	discoveryHash string
	logger        *slog.Logger
}

// WithDiscoveryHash names the sha256 digest of the private
// browser-discovery/v2 record the source came from. With it the draft is in
// state draft with that provenance; without it the draft is a scaffold
// (there is no record to audit back to, and the import never claims one).
func WithDiscoveryHash(digest string) Option { return func(o *options) { o.discoveryHash = digest } }

// WithLogger logs the import's decisions at debug level. The default
// discards.
func WithLogger(l *slog.Logger) Option { return func(o *options) { o.logger = l } }

func buildOptions(opts []Option) (*options, error) {
	o := &options{}
	for _, f := range opts {
		if f != nil {
			f(o)
		}
	}
	if o.logger == nil {
		o.logger = slog.New(slog.DiscardHandler)
	}
	if o.discoveryHash != "" && !regexp.MustCompile(capability.DigestPattern).MatchString(o.discoveryHash) {
		return nil, fmt.Errorf("%w: WithDiscoveryHash(%q) is not a sha256 digest", capability.ErrInvalidArgument, o.discoveryHash)
	}
	return o, nil
}

// decodeStrict parses raw strictly into v: one JSON value, no duplicate or
// unknown member, every required member (no omitempty) present, every
// value of its field's JSON type. It returns the generic value for the
// coverage walk.
func decodeStrict(format string, raw []byte, v any) (any, SourceErrors) {
	if len(raw) > MaxSourceBytes {
		return nil, SourceErrors{{Format: format, Code: CodeTooLarge, Message: fmt.Sprintf("the document is %d bytes, over the %d byte limit", len(raw), MaxSourceBytes)}}
	}
	doc, err := strictjson.Parse(raw)
	if err != nil {
		return nil, SourceErrors{fromStrict(format, err)}
	}
	if _, ok := doc.Value().(map[string]any); !ok {
		return nil, SourceErrors{{Format: format, Code: CodeWrongType, Message: "the document is not a JSON object"}}
	}
	t := reflect.TypeOf(v).Elem()
	var errs SourceErrors
	for _, e := range strictjson.Check(doc.Value(), t) {
		errs = append(errs, fromStrict(format, e))
	}
	for _, e := range strictjson.Missing(doc.Value(), t) {
		errs = append(errs, fromStrict(format, e))
	}
	if len(errs) > 0 {
		return nil, errs
	}
	if err := doc.Decode(v); err != nil {
		return nil, SourceErrors{fromStrict(format, err)}
	}
	return doc.Value(), nil
}

func fromStrict(format string, err error) *SourceError {
	se := &SourceError{Format: format, Code: CodeSyntax, Message: err.Error()}
	var e *strictjson.Error
	if errors.As(err, &e) {
		se.Path, se.Message = e.Path, e.Err.Error()
		switch e.Kind {
		case strictjson.KindUnknownMember:
			se.Code = CodeUnknownMember
		case strictjson.KindMissingMember:
			se.Code = CodeMissingMember
		case strictjson.KindWrongType:
			se.Code = CodeWrongType
		}
	}
	return se
}

// snake turns a camelCase, kebab or spaced name into snake_case
// (tellerUsername -> teller_username). The result may still be invalid;
// the caller checks it with ident.ValidName.
func snake(s string) string {
	var b strings.Builder
	prevLower := false
	for _, r := range s {
		switch {
		case unicode.IsUpper(r):
			if prevLower {
				b.WriteByte('_')
			}
			b.WriteRune(unicode.ToLower(r))
			prevLower = false
		case r == '-' || r == ' ' || r == '.' || r == '_':
			if b.Len() > 0 && !strings.HasSuffix(b.String(), "_") {
				b.WriteByte('_')
			}
			prevLower = false
		default:
			b.WriteRune(r)
			prevLower = unicode.IsLower(r) || unicode.IsDigit(r)
		}
	}
	return strings.TrimSuffix(b.String(), "_")
}

// secretWords are the name parts that make an input secret.
var secretWords = map[string]bool{"password": true, "passwd": true, "passcode": true, "pwd": true, "secret": true, "token": true, "pin": true, "otp": true, "totp": true, "apikey": true}

// secretName reports whether a snake_case input name names a credential.
func secretName(name string) bool {
	for _, w := range strings.Split(name, "_") {
		if secretWords[w] {
			return true
		}
	}
	return false
}

// passwordField reports whether candidates locate a password field, as a
// CSS selector with type=password or a name/label that says password.
func passwordField(cs []locator.Candidate) bool {
	for _, c := range cs {
		v := strings.ToLower(c.Value())
		if c.Strategy == locator.CSS && strings.Contains(strings.ReplaceAll(v, " ", ""), "type=\"password\"") ||
			c.Strategy == locator.CSS && strings.Contains(v, "type=password") ||
			c.Strategy != locator.CSS && strings.Contains(v, "password") {
			return true
		}
	}
	return false
}

var templateRE = regexp.MustCompile(`\{\{\s*([^{}]*?)\s*\}\}`)

// renameTemplates rewrites {{name}} references through rename (source name
// to capability name). It returns the names it did not know.
func renameTemplates(s string, rename map[string]string) (string, []string) {
	var unknown []string
	out := templateRE.ReplaceAllStringFunc(s, func(m string) string {
		name := templateRE.FindStringSubmatch(m)[1]
		if to, ok := rename[name]; ok {
			return "{{" + to + "}}"
		}
		unknown = append(unknown, name)
		return m
	})
	return out, unknown
}

// splitURL splits a navigate URL into its origin ("" for a path) and its
// query-free path with fragment. A query, user info, or a non-HTTP scheme
// is an error: the capability's navigation targets are fixed paths.
func splitURL(raw string) (org, path string, err error) {
	u, perr := url.Parse(raw)
	if perr != nil {
		return "", "", fmt.Errorf("not a URL: %v", perr)
	}
	if u.RawQuery != "" || u.ForceQuery {
		return "", "", errors.New("a navigation target with a query string has no faithful mapping (capability navigation targets are query-free; a reviewer must model the query as page interaction)")
	}
	if u.User != nil {
		return "", "", errors.New("a URL with user info would carry a credential")
	}
	path = u.EscapedPath()
	if path == "" {
		path = "/"
	}
	if u.Fragment != "" {
		path += "#" + u.EscapedFragment()
	}
	if !u.IsAbs() {
		if u.Host != "" || !strings.HasPrefix(path, "/") {
			return "", "", errors.New("a relative navigation target must be an absolute path")
		}
		return "", path, nil
	}
	o, ok := origin.OfURL(u)
	if !ok || (u.Scheme != "http" && u.Scheme != "https") {
		return "", "", fmt.Errorf("scheme %q is not http or https", u.Scheme)
	}
	return o.String(), path, nil
}

// urlConditions maps a URL regular expression (RE2) onto the strongest
// capability condition it implies: url_path for a fully anchored literal
// path, url_includes for a literal run every match must contain. ok is
// false when nothing literal is implied. exact says the mapping is
// equivalent rather than weaker.
func urlCondition(pattern string) (c capability.Condition, exact, ok bool, err error) {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return c, false, false, err
	}
	re = re.Simplify()
	subs := []*syntax.Regexp{re}
	if re.Op == syntax.OpConcat {
		subs = re.Sub
	}
	begin := len(subs) > 0 && (subs[0].Op == syntax.OpBeginText || subs[0].Op == syntax.OpBeginLine)
	end := len(subs) > 0 && (subs[len(subs)-1].Op == syntax.OpEndText || subs[len(subs)-1].Op == syntax.OpEndLine)
	var lits []string
	allLiteral := true
	for i, s := range subs {
		if (i == 0 && begin) || (i == len(subs)-1 && end) {
			continue
		}
		if s.Op == syntax.OpLiteral && s.Flags&syntax.FoldCase == 0 {
			lits = append(lits, string(s.Rune))
			continue
		}
		allLiteral = false
		lits = append(lits, "")
	}
	if allLiteral && begin && end && len(lits) == 1 && strings.HasPrefix(lits[0], "/") {
		return capability.Condition{Kind: capability.CondURLPath, Value: lits[0]}, true, true, nil
	}
	best := ""
	for _, l := range lits {
		if len(l) > len(best) {
			best = l
		}
	}
	if strings.Trim(best, "/") == "" {
		return c, false, false, nil
	}
	return capability.Condition{Kind: capability.CondURLIncludes, Value: best}, allLiteral && !begin && !end, true, nil
}

func sortStrings(s []string) { slices.Sort(s) }
