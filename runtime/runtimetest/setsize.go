package runtimetest

import (
	"context"
	"strings"

	"github.com/vera-run/vera/runtime"
)

// MethodDeclaredSets is the logged method of [Driver.DeclaredSets].
const MethodDeclaredSets Method = "DeclaredSets"

// DeclaredSets implements [runtime.SetDeclarer] over the fixture's ARIA
// attributes, as the browser driver reads the page's: a row's set is the
// rows of its nearest grid, table or treegrid (size aria-rowcount,
// positions aria-rowindex) when that declares anything; otherwise, and
// for a listitem, option, treeitem or article, the members of the same
// role and aria-level under its nearest list, listbox, group, tree or
// feed (the document when there is none), sized by aria-setsize (-1 on
// any member makes it unknown, else the largest) with positions
// aria-posinset. The call is logged like Read.
func (d *Driver) DeclaredSets(ctx context.Context, els []runtime.Element) ([]runtime.DeclaredSet, error) {
	var out []runtime.DeclaredSet
	err := d.do(ctx, Call{Method: MethodDeclaredSets}, func() error {
		if d.dialog != nil {
			return d.dialogErr()
		}
		es := make([]*elem, len(els))
		for i, el := range els {
			e, err := d.element(el)
			if err != nil {
				return err
			}
			es[i] = e
		}
		out = declaredSets(es)
		return nil
	})
	return out, err
}

var _ runtime.SetDeclarer = (*Driver)(nil)

// setContainers are the container roles of each member role.
var setContainers = map[string]map[string]bool{
	"row":      set("grid", "table", "treegrid"),
	"listitem": set("list", "directory"),
	"option":   set("listbox", "group", "combobox"),
	"treeitem": set("tree", "group"),
	"article":  set("feed"),
}

// setID is one set: its container (nil: the document), whether it is a
// grid's rows, and the members' role and level.
type setID struct {
	container *elem
	rows      bool
	role      string
	level     string
}

func declaredSets(es []*elem) []runtime.DeclaredSet {
	index := map[setID]int{}
	var out []runtime.DeclaredSet
	for i, e := range es {
		id, ok := setOf(e)
		if !ok {
			continue
		}
		if k, ok := index[id]; ok {
			out[k].Members = append(out[k].Members, i)
			continue
		}
		s, ok := describeSet(id, e)
		if !ok {
			continue
		}
		index[id] = len(out)
		s.Members = []int{i}
		out = append(out, s)
	}
	return out
}

// setOf names the set e is a member of.
func setOf(e *elem) (setID, bool) {
	role := roleOf(e)
	roles, ok := setContainers[role]
	if !ok {
		return setID{}, false
	}
	c := nearestContainer(e, roles)
	if role == "row" && c != nil {
		id := setID{container: c, rows: true, role: role}
		if s, _ := describeSet(id, e); s.Size != 0 || anyPositive(s.Positions) {
			return id, true
		}
	}
	return setID{container: c, role: role, level: e.attrs["aria-level"]}, true
}

func nearestContainer(e *elem, roles map[string]bool) *elem {
	for x := e.parent; x != nil; x = x.parent {
		if roles[roleOf(x)] {
			return x
		}
	}
	return nil
}

// describeSet reads the set's size and the positions of its members
// present; ok is false when it declares neither.
func describeSet(id setID, member *elem) (runtime.DeclaredSet, bool) {
	from := id.container
	if from == nil {
		from = member.doc.root
	}
	roles := setContainers[id.role]
	var s runtime.DeclaredSet
	if id.rows {
		s.Size = ariaInt(id.container.attrs["aria-rowcount"])
	}
	from.walk(func(x *elem) bool {
		if x == from || roleOf(x) != id.role || nearestContainer(x, roles) != id.container {
			return true
		}
		if id.rows {
			s.Positions = append(s.Positions, max(ariaInt(x.attrs["aria-rowindex"]), 0))
			return true
		}
		if x.attrs["aria-level"] != id.level {
			return true
		}
		switch n := ariaInt(x.attrs["aria-setsize"]); {
		case n < 0 || s.Size < 0:
			s.Size = -1
		case n > s.Size:
			s.Size = n
		}
		s.Positions = append(s.Positions, max(ariaInt(x.attrs["aria-posinset"]), 0))
		return true
	})
	return s, s.Size != 0 || anyPositive(s.Positions)
}

func anyPositive(ps []int) bool {
	for _, p := range ps {
		if p > 0 {
			return true
		}
	}
	return false
}

// ariaInt parses an ARIA integer attribute as the browser driver's page
// helper does: optional "-" and decimal digits after trimming spaces;
// -1 is unknown, values above 1<<30 are 1<<30, and anything else
// (absent, "+4", other negatives, not a number) is 0.
func ariaInt(v string) int {
	v = strings.TrimSpace(v)
	neg := strings.HasPrefix(v, "-")
	digits := strings.TrimPrefix(v, "-")
	if digits == "" || strings.Trim(digits, "0123456789") != "" {
		return 0
	}
	n := 0
	for _, c := range digits {
		n = min(n*10+int(c-'0'), 1<<30+1)
	}
	switch {
	case neg && n == 1:
		return -1
	case neg:
		return 0
	}
	return min(n, 1<<30)
}
