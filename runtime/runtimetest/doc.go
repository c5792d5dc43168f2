// Package runtimetest is the test kit of Vera's runtime, in the spirit of
// net/http/httptest and testing/fstest: a fake [runtime.Driver] that runs
// declarative page fixtures with no browser ([NewDriver]), and
// [TestDriver], the one conformance suite every driver must pass, the fake
// and the go-rod driver alike.
//
// A [Site] maps absolute page URLs to [Page] fixtures: a tree of [Node]
// values (tag, id, role, accessible name, label, placeholder, test id,
// text, value, attributes, hidden, disabled, frames) and [Rule] values
// saying what an action on a node changes ([Effect]: show, hide, enable,
// disable, set text, set value, remove, add, navigate, download, native
// dialog). Fixtures are plain JSON-tagged structs: write them in Go or load
// them from testdata with [LoadSite].
//
// The same site runs in a real browser: [Site.Handler] renders each page to
// accessible HTML plus a small inline script that applies the rules on real
// DOM events, and [Serve] starts one loopback server per origin and returns
// the site rebased onto them ([Site.Rebase]). [TestDriver] serves
// [ConformanceSite] that way, so one suite judges the fake and Chromium by
// the same fixtures.
//
// Invariants:
//   - The fake never decides policy. It answers mechanical questions (what
//     matches this candidate, what does this element read, where is the
//     page) and reports facts; locator order, origin approval of the
//     capability, postconditions, outcomes and receipts stay in the runtime.
//   - Fixtures never carry answers. A fixture describes a UI state and how
//     it reacts; there is no result, expected output or outcome field
//     anywhere, so a test cannot prove itself.
//   - Simulated mode only: the fake always reports [runtime.ModeSimulated]
//     and "vera-fake/1"; it can never pass for a live run.
//   - The fake and the rendered HTML are built from one materialised element
//     tree, so a structure the fake searches is the structure the browser
//     parses; [Site.Validate] rejects fixtures the HTML parser would
//     rewrite (a <div> in a <p>, an <li> outside a list, nested links) and
//     attributes that change roles, names or visibility in ways the fake
//     does not model (style, aria-hidden, aria-labelledby, event handlers).
//   - Every blocking call takes ctx first and honours it; the fake starts
//     no goroutine; Close is idempotent and afterwards every call fails with
//     [runtime.ErrClosed].
//
// Decisions where the driver contract is silent:
//   - The fake implements the optional runtime.NearestNamer
//     ([Driver.NearestNames], logged as [MethodNearestNames]): after a
//     locator miss a run's local cause lists the fixture's nearest
//     accessible names of that role, ranked by locator.NearestNames as the
//     browser driver ranks Chromium's.
//   - The fake implements the optional runtime.SetDeclarer
//     ([Driver.DeclaredSets], logged as [MethodDeclaredSets]) from the
//     fixture's aria-rowcount, aria-rowindex, aria-setsize and
//     aria-posinset attributes (which fixtures may set) by the rules the
//     browser driver applies to the page.
//   - Until RestrictOrigins is called no origin is allowed (fail closed);
//     the page starts at about:blank. Only Allowed origins may serve
//     documents; the fake has no subresources.
//   - A navigation outside the scope leaves the page where it was and
//     records a navigation violation (a frame violation when a frame
//     navigates). A frame whose document is blocked still resolves in
//     Frame: its FrameInfo carries the blocked document's actual origin and
//     its scope is an empty document. A URL without a page fixture commits
//     an empty document; Navigate then fails with
//     [runtime.ErrTargetUnreachable], like an HTTP 404.
//   - A URL that differs from the current one only by its fragment is a
//     same-document navigation: the page keeps its state and its handles.
//     Any other navigation loads the fixture afresh and makes the old
//     document's scopes and elements stale ([runtime.ErrStaleElement] on
//     Act and Read; Visible reports false).
//   - Visibility is the hidden attribute of the element and its ancestors
//     (up through hosting iframes), an <input type=hidden>, a <dialog>
//     without open, and <option>s (they have no box in a drop-down).
//   - Roles: an explicit role attribute wins; otherwise the implicit role
//     Chromium exposes for the supported tags (button, a[href] link, input
//     types textbox/searchbox/checkbox/radio/spinbutton/slider/button,
//     textarea, select combobox or listbox, h1-h6 heading, table, row,
//     cell (gridcell in a grid or treegrid), columnheader, rowgroup,
//     list, listitem, dialog, landmarks, img, paragraph, ...). The roles
//     generic, none and presentation are never matched. Names follow a
//     simplified accname: aria-label, then the <label>s of a labelable
//     control, then an input button's value, an image's alt, a table
//     caption or fieldset legend, then the visible content of roles named
//     from content, then title, then a text field's placeholder. As in
//     Chromium, a row is named from its content only in a grid or
//     treegrid: a plain table's row has no name (Playwright's getByRole
//     would give it its cells' text), so a row there is found through a
//     cell, on the fake as in the browser. A table without a caption,
//     thead, tfoot or th (nor a summary, rules, role or editable
//     ancestor) is one Chromium may take for a layout table, deciding
//     from its layout (a one-cell table is one; a bare two-row table was
//     a data table on one page and a layout table on another), and
//     then exposes with the roles LayoutTable, LayoutTableRow and
//     LayoutTableCell; the fake has no layout, so a role lookup that
//     would match a part of such a table fails with
//     [runtime.ErrUnsupported] naming the table instead of answering as
//     if it were a data table. Lookups by other strategies, and role
//     lookups no part of such a table matches, are not affected.
//   - Label matching follows Playwright: a non-empty aria-label is the
//     element's only label, else the text of its <label>s. Text matching
//     returns the deepest visible elements whose text matches (an element
//     with a matching child element is left out). Test ids match exactly.
//     Name, label, placeholder and text comparisons collapse whitespace;
//     non-exact ones are case-insensitive substring matches.
//   - CSS is the subset of [ParseSelector]; anything else fails with a
//     [SelectorError] wrapping [runtime.ErrUnsupported]. Read text is
//     innerText with whitespace collapsed (textContent for an element that
//     is not rendered).
//   - Act fails at once on a hidden, disabled or read-only element (see
//     [WithActDelay]); default actions follow the browser: a link
//     navigates unless a rule navigated, a label clicks its control, Enter
//     activates a button or link and submits a form by clicking its default
//     button (the submission itself never leaves the page), Space activates
//     buttons and check boxes, one character types into a text field.
//     check and uncheck click only when the state must change.
//   - A native dialog effect makes Navigate, Frame, Find, Act, Read and
//     Visible fail with [runtime.ErrNativeDialog], the Act that opened it
//     included, until a test calls [Driver.DismissDialog]; the driver never
//     dismisses it.
//   - Frames load with their document, depth first, at most 8 levels deep
//     and at most 64 frame documents per driver call; frames beyond that
//     stay about:blank (only self-framing fixtures get there).
//   - The fake has no shadow DOM: a fixture is one light tree ([Node] has
//     no shadow root and rendered pages have none), so what the go-rod
//     driver does with open and closed shadow roots (every strategy
//     piercing open ones, slotted text counted where it renders, closed
//     ones invisible) is tested in Chromium only (package browser, on the
//     testsite's /stress/components page). Adding shadow roots to fixtures
//     would need a second matching engine in the fake for a behaviour the
//     runtime never decides on: locator policy is the same either way.
//   - A download effect always saves the file (into the owned temporary
//     directory, or the [WithDownloadDirectory] folder through a
//     .crdownload partial) and hands the same event to every armed
//     listener; each listener attributes one download.
//   - The fake implements runtime.Capturer (capture.go) with what a
//     fixture has: the URL, the DOM serialized from the fixture tree and
//     empty storage. It renders no pixels, computes no accessibility tree
//     and keeps no history, so those sections are missing (never
//     invented) and a fake capture is never eligible for an equality
//     claim; it has no page events, so every event list is empty.
package runtimetest
