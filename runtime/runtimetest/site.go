package runtimetest

import "github.com/vera-run/vera/runtime"

// The origins of [ConformanceSite]. [TestDriver] serves the site with
// [Serve], which rebases them onto loopback ports; the fixture values are
// never dialled.
const (
	// ConformanceApp is the application origin.
	ConformanceApp = "http://127.0.0.1:4010"
	// ConformanceWidget is a second, cross-site origin that frames the
	// application back.
	ConformanceWidget = "http://localhost:4020"
	// ConformanceOutside is an origin the suite never allows.
	ConformanceOutside = "http://127.0.0.1:4030"
)

// ConformanceSite returns the site [TestDriver] runs every driver against.
// It is exported so a driver's own tests can serve and inspect exactly what
// the suite uses. Pages (on [ConformanceApp] unless noted):
//
//	/        headings, links, buttons named by text and aria-label, labelled
//	         and placeholder fields, a test id, notes for text and CSS,
//	         hidden and disabled controls
//	/act     controls whose rules change the page: fill, select, check,
//	         click, press, hash and full navigation, a blocked navigation,
//	         a download, a native dialog
//	/done    the target of a rule navigation
//	/table   a plain table (caption, a header row, two rows of cells) and
//	         a grid table of one row
//	/frames  a cross-origin frame (ConformanceWidget /outer) that frames
//	         /inner back, two frames sharing a class, and a frame of
//	         ConformanceOutside
//	/inner   a button with a rule, inside the nested frame
func ConformanceSite() *Site {
	s := func(v string) *string { return &v }
	attrs := func(kv ...string) map[string]string {
		m := map[string]string{}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return m
	}
	click := func(id string, effects ...Effect) Rule {
		return Rule{On: Trigger{Node: id, Act: runtime.ActClick}, Effects: effects}
	}
	app, widget, outside := ConformanceApp, ConformanceWidget, ConformanceOutside
	return &Site{
		Pages: map[string]*Page{
			app + "/": {
				Title: "Members",
				Body: []*Node{
					{Tag: "h1", Text: "Members"},
					{Tag: "nav", ID: "nav", Children: []*Node{
						{Tag: "a", ID: "to-act", Attributes: attrs("href", "/act"), Text: "Act page"},
						{Tag: "a", ID: "to-frames", Attributes: attrs("href", "/frames"), Text: "Frames page"},
					}},
					{Tag: "main", ID: "main", Children: []*Node{
						{Tag: "button", ID: "save", Text: "Save"},
						{Tag: "button", ID: "save-draft", Text: "Save draft"},
						{Tag: "button", ID: "save-hidden", Text: "Save later", Hidden: true},
						{Tag: "button", ID: "close", Name: "Close dialog", Text: "x"},
						{Tag: "input", ID: "email", Label: "Email address", Attributes: attrs("type", "email")},
						{Tag: "input", ID: "phone", Placeholder: "Phone number"},
						{Tag: "input", ID: "phone-ghost", Placeholder: "Phone backup", Hidden: true},
						{ID: "summary", TestID: "summary-card", Text: "Balance 12.50 EUR"},
						{Tag: "section", ID: "panel", Attributes: attrs("class", "panel"), Children: []*Node{
							{Tag: "p", ID: "note-1", Text: "First note"},
							{Tag: "p", ID: "note-2", Attributes: attrs("class", "note"), Text: "Second note"},
						}},
						{Tag: "p", ID: "note-3", Attributes: attrs("class", "note"), Text: "Hidden note", Hidden: true},
						{Tag: "p", ID: "note-4", Attributes: attrs("class", "note"), Text: "Last note"},
						{Tag: "button", ID: "locked", Text: "Locked", Disabled: true},
					}},
				},
			},
			app + "/table": {
				Title: "Invoices",
				Body: []*Node{
					{Tag: "table", ID: "invoices", Children: []*Node{
						{Tag: "caption", Text: "Invoices"},
						{Tag: "thead", Children: []*Node{
							{Tag: "tr", ID: "head-row", Children: []*Node{
								{Tag: "th", ID: "h-invoice", Text: "Invoice"},
								{Tag: "th", ID: "h-amount", Text: "Amount"},
							}},
						}},
						{Tag: "tbody", Children: []*Node{
							{Tag: "tr", ID: "row-1", Children: []*Node{
								{Tag: "td", ID: "inv-1", Text: "INV-1"},
								{Tag: "td", Text: "1.00 EUR"},
							}},
							{Tag: "tr", ID: "row-2", Children: []*Node{
								{Tag: "td", ID: "inv-2", Text: "INV-2"},
								{Tag: "td", Text: "2.00 EUR"},
							}},
						}},
					}},
					{Tag: "table", ID: "queue", Role: "grid", Children: []*Node{
						{Tag: "tbody", Children: []*Node{
							{Tag: "tr", ID: "grid-row", Children: []*Node{
								{Tag: "td", ID: "job-1", Text: "JOB-1"},
								{Tag: "td", Text: "queued"},
							}},
						}},
					}},
				},
			},
			app + "/act": {
				Title: "Act",
				Body: []*Node{
					{Tag: "h1", Text: "Act"},
					{ID: "status", Text: "idle"},
					{Tag: "input", ID: "q", Label: "Search", Attributes: attrs("type", "search")},
					{Tag: "button", ID: "go", Text: "Go"},
					{Tag: "input", ID: "name", Label: "Name"},
					{Tag: "p", ID: "greeting", Text: "Hello, Ada", Hidden: true},
					{Tag: "select", ID: "colour", Label: "Colour", Children: []*Node{
						{Tag: "option", Value: "r", Text: "Red"},
						{Tag: "option", Value: "g", Text: "Green"},
					}},
					{Tag: "p", ID: "green-note", Text: "Green chosen", Hidden: true},
					{Tag: "input", ID: "news", Label: "Newsletter", Attributes: attrs("type", "checkbox")},
					{Tag: "button", ID: "more", Text: "Show more"},
					{Tag: "section", ID: "details", Name: "Details", Hidden: true, Children: []*Node{
						{Tag: "p", Text: "Details here"},
					}},
					{ID: "banner", Text: "Welcome banner"},
					{Tag: "button", ID: "dismiss", Text: "Dismiss banner"},
					{Tag: "ul", ID: "rows", Children: []*Node{
						{Tag: "li", ID: "row-1", Text: "Row 1"},
					}},
					{Tag: "button", ID: "add-row", Text: "Add row"},
					{Tag: "button", ID: "next", Text: "Next page"},
					{Tag: "button", ID: "leave", Text: "Leave site"},
					{Tag: "button", ID: "export", Text: "Export CSV"},
					{Tag: "button", ID: "noop", Text: "Do nothing"},
					{Tag: "button", ID: "wipe", Text: "Delete everything"},
					{Tag: "a", ID: "home", Attributes: attrs("href", "/"), Text: "Home"},
				},
				Rules: []Rule{
					click("go", Effect{Navigate: "#search/{{value:q}}"}),
					{On: Trigger{Node: "q", Act: runtime.ActPress, Key: "Enter"}, Effects: []Effect{{Navigate: "#search/{{value}}"}}},
					{On: Trigger{Node: "name", Act: runtime.ActFill, ValueEquals: s("Ada")}, Effects: []Effect{{Show: []string{"greeting"}}}},
					{On: Trigger{Node: "colour", Act: runtime.ActSelect, ValueEquals: s("g")}, Effects: []Effect{{Show: []string{"green-note"}}}},
					{On: Trigger{Node: "colour", Act: runtime.ActSelect, ValueEquals: s("r")}, Effects: []Effect{{Hide: []string{"green-note"}}}},
					{On: Trigger{Node: "news", Act: runtime.ActCheck}, Effects: []Effect{{SetText: map[string]string{"status": "subscribed"}}}},
					{On: Trigger{Node: "news", Act: runtime.ActUncheck}, Effects: []Effect{{SetText: map[string]string{"status": "unsubscribed"}}}},
					click("more", Effect{Show: []string{"details"}}, Effect{SetText: map[string]string{"status": "expanded"}}),
					click("dismiss", Effect{Remove: []string{"banner"}}),
					click("add-row", Effect{Add: &AddEffect{Parent: "rows", Nodes: []*Node{{Tag: "li", ID: "row-2", Text: "Row 2"}}}}),
					click("next", Effect{Navigate: "/done"}),
					click("leave", Effect{Navigate: outside + "/"}),
					click("export", Effect{Download: "report"}),
					click("wipe", Effect{Dialog: &DialogEffect{Kind: DialogConfirm, Message: "Delete everything?"}}),
				},
			},
			app + "/done": {
				Title: "Done",
				Body:  []*Node{{Tag: "h1", Text: "Done"}},
			},
			app + "/frames": {
				Title: "Frames",
				Body: []*Node{
					{Tag: "h1", Text: "Frames"},
					{ID: "outer", Attributes: attrs("title", "Outer"), Frame: &FrameFixture{URL: widget + "/outer"}},
					{ID: "twin-a", Attributes: attrs("class", "twin"), Frame: &FrameFixture{URL: "/inner"}},
					{ID: "twin-b", Attributes: attrs("class", "twin"), Frame: &FrameFixture{URL: "/inner"}},
					{ID: "ad", Frame: &FrameFixture{URL: outside + "/ad"}},
				},
			},
			app + "/inner": {
				Title: "Inner",
				Body: []*Node{
					{Tag: "button", ID: "inner-action", Text: "Inner action"},
					{Tag: "p", ID: "inner-status", Text: "waiting"},
				},
				Rules: []Rule{
					click("inner-action", Effect{SetText: map[string]string{"inner-status": "clicked"}}),
				},
			},
			widget + "/outer": {
				Title: "Outer",
				Body: []*Node{
					{Tag: "h2", Text: "Outer frame"},
					{ID: "inner", Attributes: attrs("title", "Inner"), Frame: &FrameFixture{URL: app + "/inner"}},
				},
			},
			outside + "/": {
				Title: "Outside",
				Body:  []*Node{{Tag: "h1", Text: "Outside"}},
			},
			outside + "/ad": {
				Title: "Advert",
				Body:  []*Node{{Tag: "p", Text: "Advert"}},
			},
		},
		Downloads: map[string]DownloadFixture{
			"report": {Name: "report.csv", ContentType: "text/csv", Text: "id,amount\n1,12.50\n"},
		},
	}
}
