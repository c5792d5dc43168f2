package capability

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// CodeInvalidKey: a press action's key is not a key of the key grammar
// ([validKey]); reported at validation time, not first refused by the
// driver at run time.
const CodeInvalidKey Code = "invalid_key"

// namedKeys are the key names a press may send besides F1 to F12 and a
// single character (the rod driver's key table).
var namedKeys = map[string]bool{
	"Enter": true, "Tab": true, "Escape": true, "Backspace": true, "Delete": true, "Space": true,
	"ArrowUp": true, "ArrowDown": true, "ArrowLeft": true, "ArrowRight": true,
	"Home": true, "End": true, "PageUp": true, "PageDown": true, "Insert": true,
}

// keyModifiers are the modifiers a key may carry, joined by "+".
var keyModifiers = map[string]bool{"Alt": true, "Control": true, "Ctrl": true, "Meta": true, "Command": true, "Shift": true}

// validKey reports whether s is a key a press action may send: zero or
// more modifiers (Alt, Control or Ctrl, Meta or Command, Shift), each
// followed by "+", then one key: a named key (Enter, Tab, Escape,
// Backspace, Delete, Space, ArrowUp, ArrowDown, ArrowLeft, ArrowRight,
// Home, End, PageUp, PageDown, Insert), F1 to F12, or exactly one
// character that is not a control or white space ("a", "+", "/"). A key
// is never a template: "{{key}}" is not a key. Names match exactly, case
// included.
func validKey(s string) bool {
	if s == "" || len(s) > 32 {
		return false
	}
	name := s
	if i := strings.LastIndex(s[:len(s)-1], "+"); len(s) > 1 && i >= 0 {
		for _, m := range strings.Split(s[:i], "+") {
			if !keyModifiers[m] {
				return false
			}
		}
		name = s[i+1:]
	}
	if namedKeys[name] {
		return true
	}
	if len(name) >= 2 && len(name) <= 3 && name[0] == 'F' {
		switch name[1:] {
		case "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12":
			return true
		}
		return false
	}
	r, n := utf8.DecodeRuneInString(name)
	return n == len(name) && r != utf8.RuneError && !unicode.IsControl(r) && !unicode.IsSpace(r) &&
		!unicode.Is(unicode.Cf, r)
}
