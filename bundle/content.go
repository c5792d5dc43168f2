package bundle

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/vera-run/vera/internal/redact"
)

// fileKind is the role of an allowed path in the layout.
type fileKind int

const (
	kindOther fileKind = iota // outside the layout
	kindCapability
	kindReadme
	kindReceipt
)

// kindOf classifies a lock path against the layout: capability.json,
// README.md and receipts/<64 lowercase hex>.json.
func kindOf(p string) fileKind {
	switch p {
	case FileCapability:
		return kindCapability
	case FileReadme:
		return kindReadme
	}
	if _, ok := receiptHex(p); ok {
		return kindReceipt
	}
	return kindOther
}

// contentLimit is the size limit of a kind whose content Verify reads into
// memory, or -1 for files it only streams.
func (k fileKind) contentLimit() int64 {
	switch k {
	case kindCapability:
		return MaxCapabilityBytes
	case kindReadme:
		return MaxReadmeBytes
	case kindReceipt:
		return MaxReceiptBytes
	}
	return -1
}

// receiptHex returns the 64 hex digits of a receipts/<hex>.json path.
func receiptHex(p string) (string, bool) {
	rest, ok := strings.CutPrefix(p, DirReceipts+"/")
	if !ok {
		return "", false
	}
	hex, ok := strings.CutSuffix(rest, ".json")
	if !ok || len(hex) != 64 {
		return "", false
	}
	for i := 0; i < len(hex); i++ {
		if c := hex[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return "", false
		}
	}
	return hex, true
}

// ReceiptPath returns the bundle path of a receipt with the given digest
// ("sha256:<hex>"): receipts/<hex>.json.
func ReceiptPath(digest string) string {
	return DirReceipts + "/" + strings.TrimPrefix(digest, "sha256:") + ".json"
}

// Forbidden name classes, by lower-cased base name and by extension.
var (
	runFileNames = map[string]bool{
		"outputs.json": true, "run.lock.json": true, "recovery.proposals.json": true, "run.receipt.json": true,
	}
	storageNames = map[string]bool{
		"cookies": true, "cookies-journal": true, "cookies.txt": true, "cookies.json": true,
		"local storage": true, "session storage": true, "indexeddb": true, "login data": true,
		"login data-journal": true, "web data": true, "network persistent state": true,
		"trust tokens": true, "shared storage": true, "storage.json": true,
	}
	forbiddenExts = map[string]string{
		".html": "HTML", ".htm": "HTML", ".xhtml": "HTML", ".shtml": "HTML", ".mhtml": "an HTML archive", ".mht": "an HTML archive",
		".png": "an image or screenshot", ".jpg": "an image or screenshot", ".jpeg": "an image or screenshot",
		".jpe": "an image or screenshot", ".gif": "an image or screenshot", ".webp": "an image or screenshot",
		".bmp": "an image or screenshot", ".tif": "an image or screenshot", ".tiff": "an image or screenshot",
		".ico": "an image or screenshot", ".avif": "an image or screenshot", ".heic": "an image or screenshot",
		".heif": "an image or screenshot", ".svg": "an image or screenshot", ".jxl": "an image or screenshot",
		".sqlite": "browser storage", ".sqlite3": "browser storage", ".db": "browser storage",
		".db-journal": "browser storage", ".db-wal": "browser storage", ".db-shm": "browser storage",
		".ldb": "browser storage", ".leveldb": "browser storage",
		".har": "a network capture", ".pcap": "a network capture", ".pcapng": "a network capture",
	}
)

// forbiddenName returns why a path's name shows content that must never
// travel, or "". Every element is checked (a "Local Storage" directory
// taints what it holds).
func forbiddenName(p string) string {
	elems := strings.Split(p, "/")
	for i, e := range elems {
		lower := strings.ToLower(e)
		if storageNames[lower] {
			return fmt.Sprintf("%s is browser storage", quoteShort(e))
		}
		if i < len(elems)-1 {
			continue
		}
		if runFileNames[lower] {
			return fmt.Sprintf("%s is a run file; only sanitized receipts travel, as %s/<hash>.json", e, DirReceipts)
		}
		for dot := strings.IndexByte(lower, '.'); dot >= 0; {
			if what, ok := forbiddenExts[lower[dot:]]; ok {
				return fmt.Sprintf("%s is %s", quoteShort(e), what)
			}
			next := strings.IndexByte(lower[dot+1:], '.')
			if next < 0 {
				break
			}
			dot += 1 + next
		}
	}
	return ""
}

// sniffLen is how many leading bytes of every listed file are checked for
// magic numbers.
const sniffLen = 512

// sniff returns why the leading bytes of a file show content that must
// never travel (an image, HTML, browser storage, a PDF, an archive), or "".
// Magic numbers are checked whatever the file's name.
func sniff(head []byte) string {
	has := func(p string) bool { return bytes.HasPrefix(head, []byte(p)) }
	switch {
	case has("\x89PNG\r\n\x1a\n"):
		return "PNG image data"
	case has("\xff\xd8\xff"):
		return "JPEG image data"
	case has("GIF87a"), has("GIF89a"):
		return "GIF image data"
	case len(head) >= 12 && has("RIFF") && string(head[8:12]) == "WEBP":
		return "WebP image data"
	case len(head) >= 14 && has("BM") && bytes.Equal(head[6:10], []byte{0, 0, 0, 0}):
		return "BMP image data"
	case has("II*\x00"), has("MM\x00*"):
		return "TIFF image data"
	case has("\x00\x00\x01\x00"), has("\x00\x00\x02\x00"):
		return "icon image data"
	case has("\xff\x0a"), has("\x00\x00\x00\x0cJXL "):
		return "JPEG XL image data"
	case len(head) >= 12 && string(head[4:8]) == "ftyp":
		switch string(head[8:12]) {
		case "avif", "avis", "heic", "heix", "hevc", "mif1", "msf1":
			return "AVIF/HEIF image data"
		}
	case has("%PDF-"):
		return "a PDF document (downloaded data)"
	case has("SQLite format 3\x00"):
		return "an SQLite database (browser storage)"
	case has("PK\x03\x04"), has("PK\x05\x06"):
		return "a ZIP archive"
	case has("\x1f\x8b"):
		return "gzip data"
	}
	t := bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))
	t = bytes.TrimLeft(t, " \t\r\n\f")
	for _, p := range []string{"<!doctype html", "<html", "<head", "<body", "<script", "<iframe", "<svg", "<?xml"} {
		if len(t) >= len(p) && strings.EqualFold(string(t[:len(p)]), p) {
			return "HTML or XML markup"
		}
	}
	return ""
}

// forbiddenSchemas are document schemas that never travel in a bundle.
var forbiddenSchemas = []struct{ prefix, what string }{
	{"browser-discovery/", "a private discovery record"},
	{"browser-discovery-evidence/", "private discovery evidence"},
	{"browser-developer-pack-lock/", "a developer pack lock"},
	{"browser-run-outputs/", "run outputs (outputs.json)"},
	{"browser-run-lock/", "a run lock (run.lock.json)"},
	{"browser-recovery-proposals/", "recovery proposals"},
}

// forbiddenSchema returns what a string naming a forbidden schema shows,
// or "". The schema may appear anywhere in the string (a record pasted
// into a line of text).
func forbiddenSchema(s string) string {
	if !strings.Contains(s, "browser-") {
		return ""
	}
	for _, f := range forbiddenSchemas {
		if strings.Contains(s, f.prefix) {
			return f.what
		}
	}
	return ""
}

// htmlTags are the element names whose opening tag alone marks HTML
// content (any HTML element name but those a placeholder such as <dir>
// or <name> reads as; see findHTML).
var htmlTags = map[string]bool{
	"html": true, "head": true, "body": true, "script": true, "style": true, "iframe": true,
	"frame": true, "frameset": true, "object": true, "embed": true, "div": true, "span": true,
	"table": true, "thead": true, "tbody": true, "tfoot": true, "tr": true, "td": true, "th": true,
	"caption": true, "col": true, "colgroup": true, "form": true, "fieldset": true, "legend": true,
	"input": true, "button": true, "select": true, "option": true, "optgroup": true, "textarea": true,
	"img": true, "svg": true, "math": true, "meta": true, "link": true, "a": true, "p": true, "br": true,
	"hr": true, "wbr": true, "li": true, "ul": true, "ol": true, "dl": true, "dt": true, "dd": true,
	"h1": true, "h2": true, "h3": true, "h4": true, "h5": true, "h6": true,
	"noscript": true, "template": true, "slot": true, "base": true, "nav": true, "section": true,
	"article": true, "aside": true, "main": true, "header": true, "footer": true, "address": true,
	"label": true, "canvas": true, "video": true, "audio": true, "source": true, "track": true,
	"picture": true, "figure": true, "figcaption": true, "details": true, "summary": true, "dialog": true,
	"b": true, "i": true, "u": true, "s": true, "em": true, "strong": true, "small": true, "mark": true,
	"sub": true, "sup": true, "code": true, "pre": true, "kbd": true, "samp": true, "blockquote": true,
	"q": true, "cite": true, "abbr": true, "ins": true, "del": true, "bdi": true, "bdo": true,
	"ruby": true, "rt": true, "rp": true, "font": true, "center": true, "marquee": true, "strike": true,
	"tt": true, "big": true, "blink": true, "area": true, "map": true, "param": true, "applet": true,
	"progress": true, "meter": true, "output": true, "datalist": true,
}

// findControl returns a description of the first character text never
// holds (FORMAT.md 5.4), or "": a C0 control other than tab, LF and CR,
// DEL, a C1 control (U+0080 to U+009F, such as NEL U+0085), and the
// line and paragraph separators U+2028 and U+2029, which break lines in
// some readers and not in others. The description names the code point
// and its line and column (1-based, in runes), never the text.
func findControl(s string) string {
	line, col := 1, 0
	for _, r := range s {
		col++
		switch {
		case r == '\n':
			line, col = line+1, 0
		case r == '\t' || r == '\r':
		case r < 0x20 || r == 0x7f:
			return fmt.Sprintf("binary content (control character U+%04X at line %d, column %d)", r, line, col)
		case r >= 0x80 && r <= 0x9f:
			return fmt.Sprintf("a C1 control character (U+%04X at line %d, column %d)", r, line, col)
		case r == 0x2028 || r == 0x2029:
			return fmt.Sprintf("a Unicode line or paragraph separator (U+%04X at line %d, column %d)", r, line, col)
		}
	}
	return ""
}

// findQueryMark is the stricter URL rule of JSON strings (capability.json,
// receipts): a URL ("scheme://...") or a scheme-less path ("/members?")
// with a "?" carries a query even when the query is empty, since a
// string value is a URL, not prose whose sentence a "?" ends. A path
// holding a regular expression metacharacter (a url_pattern's
// "/items/?") is a pattern, not a path. It returns a description without the URL, or "".
func findQueryMark(s string) string {
	for i := strings.IndexByte(s, '?'); i >= 0; {
		k := i
		for k > 0 && !urlStop(s[k-1]) {
			k--
		}
		tok := s[k:i]
		if j := strings.Index(tok, "://"); j > 0 && isAlnum(tok[0]) {
			return "a URL with a query (an empty query \"?\" included)"
		}
		if strings.HasPrefix(tok, "/") && !strings.HasPrefix(tok, "//") && !strings.ContainsAny(tok, "^$*+()[]|{}") {
			return "a path with a query (an empty query \"?\" included)"
		}
		next := strings.IndexByte(s[i+1:], '?')
		if next < 0 {
			break
		}
		i += 1 + next
	}
	return ""
}

// isTagNameChar: a tag name is an ASCII letter followed by letters,
// digits and hyphens (custom elements).
func isTagNameChar(c byte) bool { return isAlnum(c) || c == '-' }

func isSpaceByte(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' }

// findHTML returns the first HTML tag, comment or doctype in s ("<div",
// "</td", "<!--", "<!doctype"), or "". A tag is: a doctype or comment; a
// closing tag "</name>" of any name (a placeholder is never closed); an
// opening tag of an HTML element name (htmlTags) ended by ">", "/",
// a line break or the end of s, or by a space when a ">" follows (as an
// HTML parser reads "<b and c>"); or an opening tag of any name whose
// remainder up to ">" holds an attribute ("=") or ends self-closing
// ("/>"). A bare "<name>" of another name ("<dir>", "<hex>",
// "<divider>") is a placeholder in running text, not markup; "a < b" and
// "x <" are not tags.
func findHTML(s string) string {
	for i := strings.IndexByte(s, '<'); i >= 0; {
		j := i + 1
		closing := j < len(s) && s[j] == '/'
		if closing {
			j++
		}
		if !closing && strings.HasPrefix(s[j:], "!--") {
			return "<!--"
		}
		if len(s)-j >= 8 && strings.EqualFold(s[j:j+8], "!doctype") {
			return "<!doctype"
		}
		k := j
		if k < len(s) && ('a' <= s[k]|0x20 && s[k]|0x20 <= 'z') {
			for k < len(s) && k-j < 32 && isTagNameChar(s[k]) {
				k++
			}
		}
		if k > j {
			ended := k == len(s) || s[k] == '>' || s[k] == '/' || isSpaceByte(s[k])
			name := strings.ToLower(s[j:k])
			switch {
			case !ended:
			case closing && k < len(s) && (s[k] == '>' || isSpaceByte(s[k])):
				return "</" + s[j:k]
			case !closing && htmlTags[name] && (k == len(s) || s[k] != ' ' && s[k] != '\t' || strings.IndexByte(s[k:], '>') >= 0):
				return "<" + s[j:k]
			case !closing:
				if gt := strings.IndexByte(s[k:], '>'); gt >= 0 {
					rest := s[k : k+gt]
					if strings.HasSuffix(rest, "/") || (len(rest) > 0 && isSpaceByte(rest[0]) && strings.Contains(rest, "=")) {
						return "<" + s[j:k]
					}
				}
			}
		}
		next := strings.IndexByte(s[i+1:], '<')
		if next < 0 {
			break
		}
		i += 1 + next
	}
	return ""
}

func isAlnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// urlStop ends a URL in running text, Markdown or JSON.
func urlStop(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\r', '"', '\'', '<', '>', '`', ')', ']', '}', '|', '\\':
		return true
	}
	return c < 0x20
}

func isSchemeChar(c byte) bool { return isAlnum(c) || c == '+' || c == '-' || c == '.' }

func isQueryName(c byte) bool {
	return isAlnum(c) || c == '_' || c == '-' || c == '.' || c == '[' || c == ']'
}

// findSessionURL reports a URL that carries a query or a session
// parameter: "scheme://host/path?x" with a non-empty query, a
// ";jsessionid="-style path parameter, or a path "/p?name=value" without
// a scheme. A '?' that only ends a sentence does not count. It returns a
// description without the URL (which may hold a session) or "".
func findSessionURL(s string) string {
	for i := 0; i < len(s); {
		j := strings.Index(s[i:], "://")
		if j < 0 {
			break
		}
		j += i
		k := j
		for k > 0 && isSchemeChar(s[k-1]) {
			k--
		}
		e := j + 3
		for e < len(s) && !urlStop(s[e]) {
			e++
		}
		if k < j && isAlnum(s[k]) {
			if what := urlQuery(s[j+3 : e]); what != "" {
				return what
			}
		}
		i = e
		if i == j {
			i = j + 3
		}
	}
	// Scheme-less paths: "/members?id=1".
	for i := strings.IndexByte(s, '?'); i >= 0; {
		k := i
		for k > 0 && !urlStop(s[k-1]) {
			k--
		}
		if k < i && s[k] == '/' && !strings.Contains(s[k:i], "://") {
			n := i + 1
			for n < len(s) && isQueryName(s[n]) {
				n++
			}
			if n > i+1 && n < len(s) && s[n] == '=' {
				return "a path with a query"
			}
		}
		next := strings.IndexByte(s[i+1:], '?')
		if next < 0 {
			break
		}
		i += 1 + next
	}
	return ""
}

// urlQuery inspects the part of a URL after "://".
func urlQuery(u string) string {
	lower := strings.ToLower(u)
	for _, p := range []string{";jsessionid=", ";sid=", ";phpsessid=", ";sessionid="} {
		if strings.Contains(lower, p) {
			return "a URL with a session parameter"
		}
	}
	q := strings.IndexByte(u, '?')
	if q < 0 {
		return ""
	}
	rest := u[q+1:]
	if h := strings.IndexByte(rest, '#'); h >= 0 {
		rest = rest[:h]
	}
	if strings.Trim(rest, ".,;:!?") == "" {
		return "" // a question mark ending a sentence
	}
	return "a URL with a query"
}

// findDataURI reports an embedded image or HTML document (a data: URI,
// any case).
func findDataURI(s string) string {
	for i := strings.IndexByte(s, ':'); i >= 0; {
		if i >= 4 && strings.EqualFold(s[i-4:i], "data") {
			rest := s[i+1:]
			for _, mime := range []string{"image/", "text/html", "application/xhtml"} {
				if len(rest) >= len(mime) && strings.EqualFold(rest[:len(mime)], mime) {
					return "an embedded " + mime + " data URI"
				}
			}
		}
		next := strings.IndexByte(s[i+1:], ':')
		if next < 0 {
			break
		}
		i += 1 + next
	}
	return ""
}

// stringRules applies the rules every string of a text file obeys: no
// HTML, no session URL, no embedded image, no forbidden schema. It returns
// the first violation or "".
func stringRules(s string) string {
	if what := forbiddenSchema(s); what != "" {
		return "names the schema of " + what
	}
	if what := findSessionURL(s); what != "" {
		return what
	}
	if what := findDataURI(s); what != "" {
		return what
	}
	if tag := findHTML(s); tag != "" {
		return fmt.Sprintf("HTML markup (%s)", tag)
	}
	return ""
}

// maxFindings bounds the content findings reported for one file.
const maxFindings = 8

// scanReadme applies the text rules to README.md line by line: UTF-8
// without control characters (tab, LF and CR aside), no secret
// ([redact.FindSecret]), no HTML, session URL, embedded image or
// forbidden schema. Findings name the line, never its content.
func scanReadme(data []byte) []string {
	var out []string
	add := func(format string, args ...any) bool {
		if len(out) == maxFindings {
			out = append(out, "more findings omitted")
			return false
		}
		out = append(out, fmt.Sprintf(format, args...))
		return true
	}
	if !utf8.Valid(data) {
		add("not valid UTF-8 text")
		return out
	}
	if what := findControl(string(data)); what != "" {
		add("%s", what)
		return out
	}
	text := string(data)
	anySecret := false
	n := -1
	for line := range strings.Lines(text) {
		n++
		if kind, ok := redact.FindSecret(line); ok {
			anySecret = true
			if !add("line %d: %s-shaped secret", n+1, kind) {
				return out
			}
		}
		if what := stringRules(line); what != "" {
			if !add("line %d: %s", n+1, what) {
				return out
			}
		}
	}
	if !anySecret {
		// A credential split across lines (a header and its value).
		if kind, ok := redact.FindSecret(text); ok {
			add("%s-shaped secret", kind)
		}
	}
	return out
}

// scanJSONText applies the text rules to a JSON document (capability.json,
// a receipt): every member name and string value checked by
// [redact.ScanJSON] for secrets and by the string rules, located by JSON
// path. A top-level schema of a forbidden document is reported first.
func scanJSONText(raw []byte) []string {
	var out []string
	add := func(format string, args ...any) bool {
		if len(out) == maxFindings {
			out = append(out, "more findings omitted")
			return false
		}
		out = append(out, fmt.Sprintf(format, args...))
		return true
	}
	for _, f := range redact.ScanJSON(raw) {
		where := f.Path
		if where == "" {
			where = "(document)"
		}
		if !add("%s-shaped secret at %s", f.Kind, quoteShort(where)) {
			return out
		}
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var doc any
	if dec.Decode(&doc) != nil {
		// The parser of the file's kind reports the syntax; still apply
		// the string rules to the raw text.
		if what := stringRules(string(raw)); what != "" {
			add("%s", what)
		}
		return out
	}
	walkStrings(doc, "", func(path, s string) bool {
		what := findControl(s)
		if what == "" {
			what = stringRules(s)
		}
		if what == "" {
			what = findQueryMark(s)
		}
		if what != "" {
			if path == "" {
				path = "(document)"
			}
			return add("%s at %s", what, quoteShort(path))
		}
		return true
	})
	return out
}

// walkStrings calls fn for every member name and string value of a
// decoded JSON document, in a deterministic order, until fn returns false.
func walkStrings(v any, path string, fn func(path, s string) bool) bool {
	switch x := v.(type) {
	case string:
		return fn(path, x)
	case []any:
		for i, e := range x {
			if !walkStrings(e, path+"["+strconv.Itoa(i)+"]", fn) {
				return false
			}
		}
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sortStrings(keys)
		for _, k := range keys {
			p := k
			if path != "" {
				p = path + "." + k
			}
			if !fn(p, k) || !walkStrings(x[k], p, fn) {
				return false
			}
		}
	}
	return true
}
