package bundle

import (
	"errors"
	"fmt"
	"path"
	"strings"
	"unicode"
	"unicode/utf8"
)

// CheckPath reports whether p may name a file in a bundle. The rules, all
// of them needed for a path that must mean the same file on every
// operating system a bundle may be received on:
//
//   - not empty and at most [MaxPathLen] bytes;
//   - valid UTF-8;
//   - only the safe set: ASCII letters, digits, '.', '_', '-', and '/' as
//     the separator (so no backslash, colon, space, control or non-ASCII
//     character: no Unicode look-alikes, no normalization ambiguity);
//   - relative: no leading '/';
//   - clean: path.Clean(p) == p, no empty element ("a//b", trailing '/'),
//     no "." or ".." element;
//   - no element ending in '.' (Windows drops trailing dots and spaces);
//   - no element that is a Windows reserved device name, in any case and
//     with any extension: CON, PRN, AUX, NUL, COM0-COM9, LPT0-LPT9
//     ("nul.txt", "Com1.tar.gz").
//
// Elements may start with '.' or '-'. Errors wrap [ErrUnsafePath] and name
// the path.
func CheckPath(p string) error {
	if err := checkPath(p); err != "" {
		return fmt.Errorf("%w: %s: %s", ErrUnsafePath, quoteBounded(p), err)
	}
	return nil
}

// checkPath returns the reason p is unsafe, or "".
func checkPath(p string) string {
	switch {
	case p == "":
		return "empty path"
	case len(p) > MaxPathLen:
		return fmt.Sprintf("longer than %d bytes", MaxPathLen)
	case !utf8.ValidString(p):
		return "not valid UTF-8"
	}
	for i := 0; i < len(p); i++ {
		if !safeByte(p[i]) {
			r, _ := utf8.DecodeRuneInString(p[i:])
			return fmt.Sprintf("character %U at byte %d is outside [A-Za-z0-9._-/]", r, i)
		}
	}
	if p[0] == '/' {
		return "absolute path"
	}
	for _, elem := range strings.Split(p, "/") {
		switch {
		case elem == "":
			return "empty path element"
		case elem == "." || elem == "..":
			return fmt.Sprintf("%q element", elem)
		case strings.HasSuffix(elem, "."):
			return fmt.Sprintf("element %q ends with a dot", elem)
		case reservedName(elem):
			return fmt.Sprintf("element %q is a Windows reserved device name", elem)
		}
	}
	if path.Clean(p) != p {
		return "not a clean path"
	}
	return ""
}

func safeByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		c == '.' || c == '_' || c == '-' || c == '/'
}

// reservedName reports whether elem names a Windows device: the part
// before the first dot is, case-insensitively, CON, PRN, AUX, NUL, or COM
// or LPT followed by one digit.
func reservedName(elem string) bool {
	base, _, _ := strings.Cut(elem, ".")
	switch len(base) {
	case 3:
		switch strings.ToUpper(base) {
		case "CON", "PRN", "AUX", "NUL":
			return true
		}
	case 4:
		u := strings.ToUpper(base[:3])
		return (u == "COM" || u == "LPT") && '0' <= base[3] && base[3] <= '9'
	}
	return false
}

func quoteBounded(p string) string {
	if len(p) > MaxPathLen+16 {
		return fmt.Sprintf("%q...", p[:MaxPathLen+16])
	}
	return fmt.Sprintf("%q", p)
}

// CheckPaths applies [CheckPath] to every path and the rules that concern
// the set:
//
//   - no path twice;
//   - no two paths equal under Unicode simple case folding
//     ([strings.EqualFold]: "README.md" and "readme.md", or "K.txt" and
//     "\u212a.txt" with the Kelvin sign), as a case-insensitive file
//     system would merge them; directories included ("A/x" and "a/y");
//   - no path used both as a file and as a directory ("a" and "a/b"),
//     compared under the same folding.
//
// The set rules are checked on every path, including those that fail
// CheckPath, so that all problems are reported. The error joins one error
// per problem, each wrapping [ErrUnsafePath] and naming its paths; nil when
// the set is safe.
func CheckPaths(paths []string) error {
	var errs []error
	for _, p := range paths {
		if err := CheckPath(p); err != nil {
			errs = append(errs, err)
		}
	}
	for _, c := range pathConflicts(paths) {
		errs = append(errs, fmt.Errorf("%w: %s", ErrUnsafePath, c.reason))
	}
	return errors.Join(errs...)
}

// conflict is one set-rule violation; path is the later path involved.
type conflict struct {
	path   string
	reason string
}

// pathConflicts returns the set-rule violations among paths, in the order
// the later path of each appears.
func pathConflicts(paths []string) []conflict {
	var out []conflict
	files := make(map[string]string, len(paths)) // fold -> first path
	dirs := map[string]string{}                  // fold -> first directory
	for _, p := range paths {
		k := foldKey(p)
		if prev, ok := files[k]; ok {
			if prev == p {
				out = append(out, conflict{p, fmt.Sprintf("%s listed twice", quoteBounded(p))})
			} else {
				out = append(out, conflict{p, fmt.Sprintf("%s and %s differ only in case", quoteBounded(prev), quoteBounded(p))})
			}
			continue
		}
		files[k] = p
		for d := parentOf(p); d != ""; d = parentOf(d) {
			dk := foldKey(d)
			if prev, ok := dirs[dk]; ok {
				if prev != d {
					out = append(out, conflict{p, fmt.Sprintf("directories %s and %s differ only in case", quoteBounded(prev), quoteBounded(d))})
				}
				break // its parents were recorded with it
			}
			dirs[dk] = d
		}
	}
	for _, p := range paths {
		k := foldKey(p)
		if files[k] != p {
			continue // reported above
		}
		if d, ok := dirs[k]; ok {
			out = append(out, conflict{p, fmt.Sprintf("%s is a file and %s a directory", quoteBounded(p), quoteBounded(d))})
		}
	}
	return out
}

// parentOf returns the directory of a slash-separated path, "" at the top.
func parentOf(p string) string {
	i := strings.LastIndexByte(p, '/')
	if i <= 0 {
		return ""
	}
	return p[:i]
}

// foldKey maps s to a canonical representative of its class under Unicode
// simple case folding: every rune is replaced by the smallest rune of its
// [unicode.SimpleFold] orbit. Two strings have equal keys exactly when
// [strings.EqualFold] holds for them: EqualFold compares rune by rune,
// and two runes fold equal exactly when they share an orbit. So 'K'
// (U+004B), 'k' (U+006B) and the Kelvin sign (U+212A) all map to 'K', and
// 'S', 's' and 'ſ' (U+017F) to 'S'. Invalid UTF-8 bytes map to U+FFFD as
// EqualFold decodes them.
func foldKey(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf || ('a' <= c && c <= 'z') {
			ascii = false
			break
		}
	}
	if ascii {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		b.WriteRune(foldRune(r))
	}
	return b.String()
}

// foldRune returns the smallest rune in r's simple folding orbit.
func foldRune(r rune) rune {
	min := r
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		if f < min {
			min = f
		}
	}
	return min
}
