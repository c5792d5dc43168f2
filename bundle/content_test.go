package bundle

import (
	"strings"
	"testing"
)

func TestFindSessionURL(t *testing.T) {
	tests := []struct {
		s    string
		want string
	}{
		{"https://teller.example/members", ""},
		{"see https://teller.example/members.", ""},
		{"Did you open https://teller.example?", ""},
		{"https://teller.example/a?", ""},
		{"http://127.0.0.1:4020/mail#search/{{query}}", ""},
		{"(https://teller.example/a) and more", ""},
		{"what? really? /a b", ""},
		{"a ? b", ""},
		{"https://teller.example/members?member=42", "a URL with a query"},
		{"<https://teller.example/x?s=1>", "a URL with a query"},
		{`"url":"https://teller.example/x?s"`, "a URL with a query"},
		{"https://teller.example/app;jsessionid=0AB12", "a URL with a session parameter"},
		{"HTTPS://TELLER.EXAMPLE/APP;JSESSIONID=0AB12", "a URL with a session parameter"},
		{"open /members?id=7 first", "a path with a query"},
		{"open /members?id first", ""},
		{"ftp://files.example/list?x=1", "a URL with a query"},
		{"://nothing?x=1", ""},
	}
	for _, tc := range tests {
		if got := findSessionURL(tc.s); got != tc.want {
			t.Errorf("findSessionURL(%q) = %q, want %q", tc.s, got, tc.want)
		}
	}
}

func TestFindHTML(t *testing.T) {
	tests := []struct {
		s    string
		want string
	}{
		{"<div class=x>", "<div"},
		{"</td>", "</td"},
		{"<!DOCTYPE html>", "<!doctype"},
		{`<a href="x">`, "<a"},
		{"text <script", "<script"},
		{"<BODY>", "<BODY"},
		{"a < b and c > d", ""},
		{"go run x <dir>", ""},
		// Issue 14: every HTML tag, not only a list of block elements
		// (these two were accepted before).
		{"<abbr>", "<abbr"},
		{"<b>bold</b>", "<b"},
		{"bold</b>", "</b"},
		{"</custom-card >", "</custom-card"},
		{"<x-card data-id=7>", "<x-card"},
		{"<widget/>", "<widget"},
		{"<!-- note -->", "<!--"},
		{"<em>", "<em"},
		{"<divider>", ""},
		{"<hex>.json", ""},
		{"x <", ""},
		{"if a<b and c>d", "<b"}, // an HTML parser reads a b tag
		{"if a<b then", ""},
		{"a <= b", ""},
		{"receipts/<hex>.json and <name> = value", ""},
	}
	for _, tc := range tests {
		if got := findHTML(tc.s); got != tc.want {
			t.Errorf("findHTML(%q) = %q, want %q", tc.s, got, tc.want)
		}
	}
}

func TestFindDataURI(t *testing.T) {
	for s, want := range map[string]bool{
		"![x](data:image/png;base64,AAAA)": true,
		"DATA:IMAGE/JPEG;base64,":          true,
		"data:text/html,<b>":               true,
		"data:application/json,{}":         false,
		"metadata: image/png":              false,
		"the data: image":                  false,
	} {
		if got := findDataURI(s) != ""; got != want {
			t.Errorf("findDataURI(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestSniff(t *testing.T) {
	tests := []struct {
		head string
		want string // substring; "" for none
	}{
		{"\x89PNG\r\n\x1a\n....", "PNG"},
		{"\xff\xd8\xff\xe0", "JPEG"},
		{"GIF89a", "GIF"},
		{"RIFF\x00\x00\x00\x00WEBPVP8 ", "WebP"},
		{"BM\x36\x00\x00\x00\x00\x00\x00\x00\x36\x00\x00\x00", "BMP"},
		{"II*\x00", "TIFF"},
		{"\x00\x00\x01\x00", "icon"},
		{"\x00\x00\x00\x1cftypavif", "AVIF"},
		{"%PDF-1.7", "PDF"},
		{"SQLite format 3\x00", "SQLite"},
		{"PK\x03\x04", "ZIP"},
		{"\x1f\x8b\x08", "gzip"},
		{"\xef\xbb\xbf  <!doctype html>", "HTML"},
		{"\n<HTML>", "HTML"},
		{"<svg xmlns=", "HTML"},
		{"<?xml version", "HTML"},
		{"{\"schema\":\"browser-run-receipt/v3\"}", ""},
		{"# Title\n", ""},
		{"BMW is a car brand", ""},
		{"", ""},
	}
	for _, tc := range tests {
		got := sniff([]byte(tc.head))
		if tc.want == "" && got != "" || tc.want != "" && !strings.Contains(got, tc.want) {
			t.Errorf("sniff(%q) = %q, want %q", tc.head, got, tc.want)
		}
	}
}

func TestForbiddenName(t *testing.T) {
	tests := []struct {
		p    string
		want string
	}{
		{"outputs.json", "run file"},
		{"runs/a/run.lock.json", "run file"},
		{"recovery.proposals.json", "run file"},
		{"run.receipt.json", "run file"},
		{"page.HTML", "HTML"},
		{"saved.mhtml", "HTML archive"},
		{"shot.PNG", "image"},
		{"a.tar.png", "image"},
		{"logo.svg", "image"},
		{"Default/Cookies", "browser storage"},
		{"Local Storage/leveldb/x", "browser storage"},
		{"state.sqlite", "browser storage"},
		{"000003.ldb", "browser storage"},
		{"trace.har", "network capture"},
		{"capability.json", ""},
		{"README.md", ""},
		{"receipts/ab.json", ""},
		{"notes.txt", ""},
		{"png", ""},
		{"cookiesfile", ""},
	}
	for _, tc := range tests {
		got := forbiddenName(tc.p)
		if tc.want == "" && got != "" || tc.want != "" && !strings.Contains(got, tc.want) {
			t.Errorf("forbiddenName(%q) = %q, want %q", tc.p, got, tc.want)
		}
	}
}

func TestScanReadme(t *testing.T) {
	tests := []struct {
		text string
		want string // substring of the first finding; "" for none
	}{
		{"# Title\n\nPlain text with `code`, https://teller.example/members and 2026-03-02.\n", ""},
		{"# T\nkey: ghp_" + strings.Repeat("a1B2", 9) + "\n", "line 2: api_key-shaped secret"},
		{"# T\n\nDB_PASSWORD=hunter22\n", "line 3: credential_assignment"},
		{"-----BEGIN RSA PRIVATE KEY-----\nMIIB\n", "line 1: private_key"},
		{"a\x00b", "binary content"},
		{"a\x1bb", "binary content"},
		{"caf\xe9", "not valid UTF-8"},
		{"tabs\tand\r\nCRLF are text\r\n", ""},
		{"x\n<iframe src=x>\n", "line 2: HTML markup (<iframe)"},
		{"next line\u0085here", "C1 control character (U+0085 at line 1, column 10)"},
		{"a\n\u2028b", "separator (U+2028 at line 2, column 1)"},
		{"para\u2029", "U+2029"},
		{"\u009b[31m", "U+009B"},
		{"x\x7f", "U+007F"},
		{"caf\u00e9 \u00a0 ok", ""},
	}
	for _, tc := range tests {
		got := scanReadme([]byte(tc.text))
		switch {
		case tc.want == "" && len(got) > 0:
			t.Errorf("scanReadme(%q) = %q, want none", tc.text, got)
		case tc.want != "" && (len(got) == 0 || !strings.Contains(got[0], tc.want)):
			t.Errorf("scanReadme(%q) = %q, want %q", tc.text, got, tc.want)
		}
		for _, f := range got {
			if strings.Contains(f, "ghp_") || strings.Contains(f, "hunter22") {
				t.Errorf("finding quotes the secret: %q", f)
			}
		}
	}
	// Findings are bounded.
	many := strings.Repeat("<div>\n", 100)
	if got := scanReadme([]byte(many)); len(got) != maxFindings+1 {
		t.Errorf("%d findings, want %d", len(got), maxFindings+1)
	}
}

// TestScanJSONTextControls: capability and receipt strings (member names
// and values) hold no C0 control but tab, LF and CR, no DEL, no C1
// control and no U+2028/U+2029 (issue 14), and no HTML tag.
func TestScanJSONTextControls(t *testing.T) {
	for _, tc := range []struct {
		doc  string
		want string
	}{
		{`{"intent":"Read the balance"}`, ""},
		{`{"intent":"line one\nline two\ttab"}`, ""},
		{`{"intent":"next\u0085line"}`, "C1 control character (U+0085 at line 1, column 5) at \"intent\""},
		{`{"intent":"a\u2028b"}`, "U+2028"},
		{`{"name\u2029":"x"}`, "U+2029"},
		{`{"goal":"bell\u0007"}`, "U+0007"},
		{`{"goal":"read <b>bold</b>"}`, "HTML markup (<b)"},
		{`{"goal":"see <em class=x>"}`, "HTML markup (<em)"},
		{`{"start":"https://teller.example/members?"}`, "a URL with a query (an empty query"},
		{`{"start":"https://teller.example/members?#top"}`, "a URL with a query"},
		{`{"value":"/members?"}`, "a path with a query"},
		{`{"intent":"Is the member found?"}`, ""},
		{`{"url_pattern":"^/items/?$"}`, ""},
		{`{"intent":"Open https://teller.example/members. Found?"}`, ""},
	} {
		got := scanJSONText([]byte(tc.doc))
		switch {
		case tc.want == "" && len(got) > 0:
			t.Errorf("scanJSONText(%s) = %q, want none", tc.doc, got)
		case tc.want != "" && (len(got) == 0 || !strings.Contains(got[0], tc.want)):
			t.Errorf("scanJSONText(%s) = %q, want %q", tc.doc, got, tc.want)
		}
	}
}
