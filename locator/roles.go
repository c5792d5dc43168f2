package locator

import "slices"

// ariaRoles lists the WAI-ARIA 1.2 roles (plus the Chromium accessibility
// roles a queryAXTree lookup can return for native elements), sorted.
var ariaRoles = []string{
	"alert", "alertdialog", "application", "article", "banner", "blockquote",
	"button", "caption", "cell", "checkbox", "code", "columnheader", "combobox",
	"complementary", "contentinfo", "definition", "deletion", "dialog",
	"directory", "document", "emphasis", "feed", "figure", "form", "generic",
	"grid", "gridcell", "group", "heading", "img", "insertion", "link", "list",
	"listbox", "listitem", "log", "main", "marquee", "math", "menu", "menubar",
	"menuitem", "menuitemcheckbox", "menuitemradio", "meter", "navigation",
	"none", "note", "option", "paragraph", "presentation", "progressbar",
	"radio", "radiogroup", "region", "row", "rowgroup", "rowheader",
	"scrollbar", "search", "searchbox", "separator", "slider", "spinbutton",
	"status", "strong", "subscript", "superscript", "switch", "tab", "table",
	"tablist", "tabpanel", "term", "textbox", "time", "timer", "toolbar",
	"tooltip", "tree", "treegrid", "treeitem",
}

// KnownRole reports whether role is a WAI-ARIA role name.
func KnownRole(role string) bool {
	_, ok := slices.BinarySearch(ariaRoles, role)
	return ok
}

// Roles returns the known role names, sorted.
func Roles() []string { return slices.Clone(ariaRoles) }
