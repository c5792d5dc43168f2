package browser

import (
	"context"
	"fmt"

	"github.com/go-rod/rod/lib/proto"
	"github.com/vera-run/vera/locator"
	"github.com/vera-run/vera/runtime"
)

// MaxExplainNodes bounds how many accessibility nodes of one role
// [Driver.ExplainLocator] and [Driver.NearestNames] look at; a page with
// more elements of that role is explained from the first ones in the
// browser's answer.
const MaxExplainNodes = 500

// DefaultExplainNames is how many nearest names [Driver.ExplainLocator]
// lists.
const DefaultExplainNames = 5

// Explanation says what one locator candidate finds on a live page and,
// for a named role candidate, which accessible names of that role the page
// has nearest to the one asked for and how each differs
// ([locator.CompareName]: whitespace, case, extra or missing text).
type Explanation struct {
	// Candidate is the candidate as given, rendered ([locator.Candidate.String]).
	Candidate string
	// Matches is how many elements Find returns for the candidate: 1 is
	// what an action needs.
	Matches int
	// RoleCount is how many visible elements of the candidate's role the
	// scope has (role candidates only; at most [MaxExplainNodes]).
	RoleCount int
	// Nearest are the nearest accessible names of the role, nearest first
	// (named role candidates only). A name equal to the candidate's comes
	// first with no Diffs.
	Nearest []locator.NearName
}

// ExplainLocator tells an authoring tool why a candidate does or does not
// match in a scope of a live page (nil scope: the top-level document; a
// frame scope comes from [Driver.Frame]): how many elements it matches
// and, for a role candidate with a name, the [DefaultExplainNames]
// accessible names of that role nearest to the name, as Chromium computes
// them. Chromium's name of a button showing "GET /api/pets/{petId}" with
// <wbr> breaks and a description is "GET /api /pets /{petId} Info for a
// specific pet", which an exact candidate "GET /api/pets/{petId}" does not
// match; the explanation lists that name with the differences
// "whitespace" and "extra_text".
//
// The names come from the browser's accessibility tree, never from page
// text computed by hand, and only visible elements count, as in Find. The
// candidate must pass [locator.Candidate.Check] (else the error wraps
// [runtime.ErrInvalidArgument]); input templates are not substituted.
// ExplainLocator never acts on the page. The runtime calls the same
// listing ([Driver.NearestNames]) for the local cause of a miss.
func (d *Driver) ExplainLocator(ctx context.Context, scope runtime.Scope, c locator.Candidate) (Explanation, error) {
	if ps := c.Check(); len(ps) > 0 {
		return Explanation{}, fmt.Errorf("%w: candidate %s: %s", runtime.ErrInvalidArgument, c, ps[0].Detail)
	}
	ex := Explanation{Candidate: c.String()}
	els, err := d.Find(ctx, scope, nil, c)
	if err != nil {
		return ex, err
	}
	ex.Matches = len(els)
	if c.Strategy != locator.Role {
		return ex, nil
	}
	names, err := d.roleNames(ctx, scope, nil, c.Role)
	if err != nil {
		return ex, err
	}
	ex.RoleCount = len(names)
	if c.Name != "" {
		ex.Nearest = locator.NearestNames(c.Name, names, DefaultExplainNames)
	}
	return ex, nil
}

// NearestNames implements [runtime.NearestNamer]: the n accessible names
// of c's role in scope (inside root when not nil) nearest to c.Name,
// ranked by [locator.NearestNames]. Only visible elements count.
func (d *Driver) NearestNames(ctx context.Context, scope runtime.Scope, root runtime.Element, c locator.Candidate, n int) ([]locator.NearName, error) {
	if c.Strategy != locator.Role || c.Role == "" {
		return nil, fmt.Errorf("%w: nearest names need a role candidate, got %s", runtime.ErrInvalidArgument, c)
	}
	names, err := d.roleNames(ctx, scope, root, c.Role)
	if err != nil {
		return nil, err
	}
	return locator.NearestNames(c.Name, names, n), nil
}

var _ runtime.NearestNamer = (*Driver)(nil)

// roleNames returns the accessible names of the visible elements with the
// role in the scope (or inside root), in document order, one per element
// ("" for an unnamed one).
func (d *Driver) roleNames(ctx context.Context, s runtime.Scope, root runtime.Element, role string) ([]string, error) {
	cctx, done, err := d.begin(ctx)
	if err != nil {
		return nil, err
	}
	defer done()
	sc, rootObj, err := d.scopeRoot(s, root)
	if err != nil {
		return nil, err
	}
	return inDocument(cctx, d, sc, func(doc proto.RuntimeRemoteObjectID) ([]string, error) {
		return d.queryRoleNames(cctx, sc, doc, rootObj, role)
	})
}

// queryRoleNames asks the accessibility tree for every node of the role
// and keeps the visible ones of this document (jsFilter, as queryRole).
func (d *Driver) queryRoleNames(ctx context.Context, sc *scope, doc, rootObj proto.RuntimeRemoteObjectID, role string) ([]string, error) {
	q := proto.AccessibilityQueryAXTree{ObjectID: doc, Role: role}
	if rootObj != "" {
		q.ObjectID = rootObj
	}
	var res proto.AccessibilityQueryAXTreeResult
	if err := d.call(ctx, sc.sid, q, &res); err != nil {
		return nil, err
	}
	type node struct {
		backend proto.DOMBackendNodeID
		name    string
	}
	var nodes []node
	seen := map[proto.DOMBackendNodeID]bool{}
	for _, n := range res.Nodes {
		if len(nodes) == MaxExplainNodes {
			break
		}
		if n == nil || n.Ignored || n.BackendDOMNodeID == 0 || seen[n.BackendDOMNodeID] || !axMatches(n, role, "", false) {
			continue
		}
		seen[n.BackendDOMNodeID] = true
		name := ""
		if n.Name != nil {
			name = normalizeSpace(n.Name.Value.Str())
		}
		nodes = append(nodes, node{n.BackendDOMNodeID, name})
	}
	backends := make([]proto.DOMBackendNodeID, len(nodes))
	for i, n := range nodes {
		backends[i] = n.backend
	}
	keep, _, err := d.filterAXNodes(ctx, sc, doc, rootObj, backends)
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(keep))
	for _, i := range keep {
		out = append(out, nodes[i].name)
	}
	return out, nil
}

// Actionability implements [runtime.ActionabilityError]: the check that
// failed, the element's box and the viewport, for the run's local cause.
func (e *NotInteractableError) Actionability() runtime.Actionability {
	a := runtime.Actionability{Check: e.Check, Detail: e.Detail, Cover: e.Cover,
		X: e.Box.X, Y: e.Box.Y, W: e.Box.W, H: e.Box.H, ViewportW: e.ViewportW, ViewportH: e.ViewportH}
	if e.At != nil {
		a.AtX, a.AtY, a.HasPoint = e.At.X, e.At.Y, true
	}
	return a
}

var _ runtime.ActionabilityError = (*NotInteractableError)(nil)
