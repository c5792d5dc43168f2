package browser

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod/lib/proto"
	"github.com/vera-run/vera/locator"
	"github.com/vera-run/vera/runtime"
)

// labelCorpusBody is every label form the label strategy knows, and the
// cases where a shortcut could go wrong: nested and wrapping labels,
// hidden and generated text, case transforms, display:contents, comments,
// labels for non-labelable elements and hidden inputs, duplicate ids,
// aria-labelledby chains and missing ids, open, declarative and closed
// shadow roots, slots, form-associated custom elements (labelled by for,
// by wrapping and by aria-labelledby) beside a custom element that is not
// form-associated, controls that are not visible, controls that are
// inert (an inert ancestor, one across a shadow host, CSS
// interactivity:inert), and a re-rendering list.
const labelCorpusBody = `<style>
.box { display: inline-block; width: 20px; height: 10px; }
.gen::before { content: "Head "; }
.genafter::after { content: " Tail"; }
</style>
<form id=box>
<p><label for=a1>Email</label><input id=a1></p>
<p><label>Full name <input id=a2></label></p>
<p><label>Outer <label>Inner <input id=a3></label></label></p>
<p><label for=a4>Vis<span style="display:none">Secret</span>ible</label><input id=a4></p>
<p><label for=a5 style="text-transform:uppercase">shout field</label><input id=a5></p>
<p><label for=a6 style="text-transform:lowercase">QUIET FIELD</label><input id=a6></p>
<p><label for=a7 style="text-transform:capitalize">title case words</label><input id=a7></p>
<p><label for=a8 lang=tr style="text-transform:uppercase">istanbul city</label><input id=a8></p>
<p><label for=a9 style="display:contents">Contents label</label><input id=a9></p>
<p><label for=a10 class=gen>tail part</label><input id=a10></p>
<p><label for=a11 class=genafter>Head part</label><input id=a11></p>
<p><label for=a12>Com<!-- hidden comment -->ment label</label><input id=a12></p>
<p><label for=a13>Div label</label><div id=a13 tabindex=0>not labelable</div></p>
<p><label for=a14>Hidden input label</label><input type=hidden id=a14></p>
<p><label for=dup>Duplicate id</label><input id=dup><input id=dup></p>
<p><label for=a15>Line<br>break</label><input id=a15></p>
<p><label for=a16>Non&nbsp;breaking</label><input id=a16></p>
<p><label for=a17>Straße</label><input id=a17></p>
<p><label for=a18 style="text-transform:uppercase">straße</label><input id=a18></p>
<p><label for=a19>Ｆｕｌｌ width</label><input id=a19></p>
<p><label for=a20 style="text-transform:full-width">half width</label><input id=a20></p>
<p><label for=a21>   spaced
   out   label  </label><input id=a21></p>
<p><label for=a22>First of two</label><label for=a22>Second of two</label><input id=a22></p>
<p><label>Wraps two <input id=a23><input id=a24></label></p>
<p><label for=a25>Button label</label><button id=a25 type=button>Press</button></p>
<p><label for=a26>Meter label</label><meter id=a26 value=1></meter></p>
<p><label for=a27>Output label</label><output id=a27>o</output></p>
<p><label for=a28>Progress label</label><progress id=a28></progress></p>
<p><label for=a29>Select label</label><select id=a29><option>One</option></select></p>
<p><label for=a30>Area label</label><textarea id=a30>text</textarea></p>
<p><label for=a31>Gone control</label><input id=a31 style="display:none"></p>
<p><label for=a32 style="display:none">Gone label</label><input id=a32></p>
<p><label for=a33 style="visibility:hidden">Invisible label</label><input id=a33></p>
<p><label for=a34><b>Bold</b> label</label><input id=a34></p>
<p><label for=a35>   </label><input id=a35></p>
<p><span id=l1>Labelled</span> <span id=l2>by two</span><input id=a36 aria-labelledby="l1 missing l2"></p>
<p><span id=l3 style="display:none">Hidden labelledby</span><input id=a37 aria-labelledby=l3></p>
<p><label id=l4 for=a38>Label as labelledby</label><input id=a38><input id=a39 aria-labelledby=l4></p>
<p><span id=l5 style="text-transform:uppercase">upper labelledby</span><div id=a40 role=textbox contenteditable aria-labelledby=l5></div></p>
<p><input id=a41 aria-label="Aria named"><div id=a42 aria-label="Aria div"></div><input id=a43 aria-label=""></p>
<p><input id=a44 aria-label="Both" aria-labelledby=l1><label for=a44>Label too</label></p>
<p><form-thing id=a45></form-thing><label for=a45>Custom label</label></p>
<p><form-thing id=a47 class=box></form-thing><label for=a47>Sized custom label</label></p>
<p><label>Wrapped custom <form-thing id=a48 class=box></form-thing></label></p>
<p><plain-thing id=a49 class=box></plain-thing><label for=a49>Plain custom label</label></p>
<p><form-thing id=a50 class=box aria-labelledby=l6></form-thing><span id=l6>Custom labelledby</span></p>
<div inert><label for=a51>Inert label</label><input id=a51><label>Inert wrap <input id=a52></label>
<form-thing id=a53 class=box aria-label="Inert custom"></form-thing><span id=host5></span></div>
<p style="interactivity:inert"><label for=a54>Style inert label</label><input id=a54></p>
<p><label for=a55>Inert label</label><input id=a55></p>
<p><span id=host1></span></p>
<p><span id=host2><input id=a46 slot=s></span></p>
<p><label for=inshadow>Outside for shadow</label><span id=host3></span></p>
<p><span id=host4></span></p>
<div id=dsd><template shadowrootmode=open><label for=d1>Declarative label</label><input id=d1></template></div>
<ul id=list></ul>
</form>
<p><label for=outside-root>Outside root label</label></p>
<iframe id=lf srcdoc="<label for=f1>Frame label</label><input id=f1><label>Frame wrap <input id=f2></label>"></iframe>
<script>
customElements.define('form-thing', class extends HTMLElement { static formAssociated = true; });
customElements.define('plain-thing', class extends HTMLElement {});
document.getElementById('host5').attachShadow({mode: 'open'}).innerHTML = '<label>Inert shadow <input id=s5></label>';
const s1 = document.getElementById('host1').attachShadow({mode: 'open'});
s1.innerHTML = '<label for=s1>Shadow label</label><input id=s1><span id=sl>Shadow labelledby</span><input id=s2 aria-labelledby=sl><input id=s3 aria-labelledby=l1>';
const s2 = document.getElementById('host2').attachShadow({mode: 'open'});
s2.innerHTML = '<label>Slotted into <slot name=s></slot> shadow label</label>';
const s3 = document.getElementById('host3').attachShadow({mode: 'open'});
s3.innerHTML = '<input id=inshadow>';
const s4 = document.getElementById('host4').attachShadow({mode: 'closed'});
s4.innerHTML = '<label for=c1>Closed label</label><input id=c1>';
const inner = s1.appendChild(document.createElement('span')).attachShadow({mode: 'open'});
inner.innerHTML = '<label>Nested shadow <input id=s4></label>';
// A list that re-renders: the same labels, new nodes, every few ms
// for a while after load.
let n = 0;
const render = () => {
  document.getElementById('list').innerHTML = '<li><label>Row one <input></label></li><li><label for=r2>Row two</label><input id=r2></li>';
  if (++n < 40) setTimeout(render, 5);
};
render();
</script>
<p><input id=outside-root></p>`

// jsFindLabelRef is the label rule as jsFind computed it before jsLabel
// (label.go) replaced it, for Find and FindCounts alike: every candidate
// control is asked for its labels (through one map of every label of the
// scope to its control), its aria-labelledby elements, its aria-label and
// the shadow-tree <label> it is slotted into. It is the reference
// TestLabelFastSameAnswer compares both with, and runs as jsFind did,
// with this = the scope's document.
const jsFindLabelRef = `function(value, exact, root) {
` + jsPrelude + jsDeep + jsLabelable + jsInert + `
  const doc = this;
  if (!doc.defaultView) return 'stale';
  if (root && (root.ownerDocument !== doc || !root.isConnected)) return 'detached';
  const base = root || doc;
  const want = norm(value), wantLower = want.toLowerCase();
  const matches = s => { const n = norm(s); return exact ? n === want : n.toLowerCase().includes(wantLower); };
  const { roots, customs } = census(base, true);
  const composed = roots.length ? composedSet(roots) : new Set();
  const text = makeText(composed);
  let out;
  const rendered = l => composed.size && composed.has(l) ? text(l) : (l.innerText || l.textContent);
  // innerText lays every label out; most cannot match. A label (or
  // labelledby element) of text nodes only renders its textContent
  // give or take whitespace and an ASCII case transform, so when that
  // text and the wanted one are ASCII and the text, spaces removed and
  // lowercased, does not contain the wanted one, it cannot match and
  // its innerText is not needed.
  const ascii = /^[\x00-\x7f]*$/, wantFold = wantLower.replace(/\s+/g, '');
  const plain = l => { for (const k of l.childNodes) if (k.nodeType !== 3) return false; return true; };
  const labelText = l => {
    if (ascii.test(want) && !(composed.size && composed.has(l)) && plain(l)) {
      const tc = l.textContent;
      if (ascii.test(tc) && !tc.replace(/\s+/g, '').toLowerCase().includes(wantFold)) return '';
    }
    return rendered(l);
  };
  const labels = labelsOf([base.getRootNode(), ...roots]);
  const texts = el => {
    const t = [];
    for (const l of labels(el)) t.push(labelText(l));
    const ids = el.getAttribute('aria-labelledby');
    if (ids) {
      // IDs resolve in the element's own tree (document or shadow root).
      const tree = el.getRootNode();
      for (const id of ids.split(/\s+/)) { const r = id && tree.getElementById && tree.getElementById(id); if (r) t.push(labelText(r)); }
    }
    const al = el.getAttribute('aria-label');
    if (al) t.push(al);
    if (roots.length) {
      // A control slotted into a <label> of a shadow tree.
      for (let p = el, crossed = false; p; p = flatParent(p)) {
        if (p.assignedSlot) crossed = true;
        if (crossed && p !== el && p.tagName === 'LABEL') t.push(labelText(p));
      }
    }
    return t;
  };
  // The labelable elements (form controls, form-associated custom
  // elements) and the elements with aria-labelledby or aria-label; the
  // inert ones (jsInert) are dropped as the invisible ones are.
  const inert = inertOf(doc, base, roots);
  out = [...deepQuery(base, roots, 'input,textarea,select,button,meter,output,progress,[aria-labelledby],[aria-label]'), ...facesOf(doc, base, customs)]
    .filter(e => !(e.tagName === 'INPUT' && e.type === 'hidden') && texts(e).some(matches));
  return Array.from(new Set(out)).filter(e => visible(e) && !inert(e)).sort(docOrder);
}`

// labelWants lists wanted texts from the corpus itself: each label-like
// text, its words and halves, in several cases, plus texts no
// shortcut may fold wrongly.
const jsLabelWants = `function() {
  const norm = s => (s == null ? '' : String(s)).replace(/\s+/g, ' ').trim();
  const out = new Set(['', ' ', 'STRASSE', 'strasse', 'İSTANBUL', 'ISTANBUL', 'Istanbul', 'ıstanbul', 'FULL WIDTH', 'full', 'ＨＡＬＦ', 'ｈａｌｆ ｗｉｄｔｈ',
    'Head tail part', 'Head', 'Tail', 'Secret', 'Visible', 'Comment label', 'Line break', 'Linebreak', 'Non breaking', 'Title Case Words',
    'Outer Inner', 'Inner', 'Row one', 'Row two', 'Slotted into shadow label', 'Closed label', 'Labelled by two', 'nothing at all']);
  const add = s => {
    s = norm(s);
    if (!s) return;
    for (const v of [s, s.toLowerCase(), s.toUpperCase()]) out.add(v);
    const w = s.split(' ');
    out.add(w[0]); out.add(w[w.length - 1]);
    out.add(s.slice(0, Math.ceil(s.length / 2)));
    out.add(s.slice(Math.floor(s.length / 2)));
  };
  const roots = [document];
  for (const e of document.querySelectorAll('*')) if (e.shadowRoot) roots.push(e.shadowRoot);
  for (let i = 1; i < roots.length; i++) for (const e of roots[i].querySelectorAll('*')) if (e.shadowRoot) roots.push(e.shadowRoot);
  for (const r of roots) {
    for (const l of r.querySelectorAll('label, span[id]')) { add(l.textContent); add(l.innerText); }
    for (const e of r.querySelectorAll('[aria-label]')) add(e.getAttribute('aria-label'));
  }
  return Array.from(out);
}`

// labelCorpus is the label corpus page opened in the shared driver: the
// wanted texts, the scopes to look in and the reference answer.
type labelCorpus struct {
	wants     []string
	top       runtime.Scope
	scopes    []labelScope
	reference func(s runtime.Scope, root runtime.Element, c locator.Candidate) ([]*element, error)
}

// labelScope is one scope (and root) of the label corpus.
type labelScope struct {
	name  string
	scope runtime.Scope
	root  runtime.Element
}

func openLabelCorpus(t *testing.T, ctx context.Context, d *Driver) *labelCorpus {
	t.Helper()
	openLabelPage(t, ctx, d, labelCorpusBody)
	doc, err := d.document(ctx, d.top)
	if err != nil {
		t.Fatal(err)
	}
	var wants []string
	if _, err := d.callOn(ctx, d.top.sid, doc, jsLabelWants, true, &wants); err != nil {
		t.Fatal(err)
	}
	if len(wants) < 100 {
		t.Fatalf("%d wanted texts: the corpus proves little", len(wants))
	}
	top, _, err := d.Frame(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	frame, _, err := d.Frame(ctx, []string{"#lf"})
	if err != nil {
		t.Fatal(err)
	}
	one := func(s runtime.Scope, css string) runtime.Element {
		t.Helper()
		els, err := d.Find(ctx, s, nil, locator.Candidate{Strategy: locator.CSS, CSS: css})
		if err != nil || len(els) != 1 {
			t.Fatalf("%s: %d elements, %v", css, len(els), err)
		}
		return els[0]
	}
	scopes := []labelScope{
		{"document", top, nil},
		{"form", top, one(top, "#box")},
		{"shadow host", top, one(top, "#host1")},
		{"frame", frame, nil},
	}
	reference := labelRef(t, ctx, d)
	return &labelCorpus{wants: wants, top: top, scopes: scopes, reference: reference}
}

// labelRef returns the reference label lookup (jsFindLabelRef) in the
// shared driver's current page.
func labelRef(t *testing.T, ctx context.Context, d *Driver) func(s runtime.Scope, root runtime.Element, c locator.Candidate) ([]*element, error) {
	return func(s runtime.Scope, root runtime.Element, c locator.Candidate) ([]*element, error) {
		t.Helper()
		sc, rootObj, err := d.scopeRoot(s, root)
		if err != nil {
			return nil, err
		}
		return inDocument(ctx, d, sc, func(doc proto.RuntimeRemoteObjectID) ([]*element, error) {
			r, err := d.callOn(ctx, sc.sid, doc, jsFindLabelRef, false, nil, val(c.Value()), val(c.Exact), obj(rootObj))
			if err != nil {
				return nil, err
			}
			if err := helperStatus(r); err != nil {
				return nil, err
			}
			objs, err := d.arrayObjects(ctx, sc.sid, r)
			if err != nil {
				return nil, err
			}
			return d.handles(ctx, sc, objs)
		})
	}
}

// TestLabelFastSameAnswer checks in Chromium that the label lookup
// (jsLabel) returns exactly the elements the reference (jsFindLabelRef,
// which asks every control for its labels) returns, in the same order,
// and that FindCounts counts as many, for every wanted text of the
// corpus, exact and substring, over the document, a root element, a
// shadow host and a frame.
func TestLabelFastSameAnswer(t *testing.T) {
	t.Parallel()
	d := shared(t)
	ctx := tctx(t, 5*time.Minute)
	lc := openLabelCorpus(t, ctx, d)
	wants, scopes, reference, top := lc.wants, lc.scopes, lc.reference, lc.top
	var err error
	matched, compared := 0, 0
	for _, sc := range scopes {
		for _, want := range wants {
			for _, exact := range []bool{true, false} {
				c := locator.Candidate{Strategy: locator.Label, Label: want, Exact: exact}
				// The page re-renders a list: retry a comparison whose
				// two answers straddled a re-render.
				var got []runtime.Element
				var ref []*element
				for try := 0; ; try++ {
					got, err = d.Find(ctx, sc.scope, sc.root, c)
					if err != nil {
						t.Fatalf("%s %q exact %v: %v", sc.name, want, exact, err)
					}
					ref, err = reference(sc.scope, sc.root, c)
					if err != nil {
						t.Fatalf("%s %q exact %v: reference: %v", sc.name, want, exact, err)
					}
					if sameOrder(got, ref) || try == 3 {
						break
					}
					if try > 0 {
						waitRendered(t, ctx, d, top)
					}
				}
				compared++
				if !sameOrder(got, ref) {
					t.Errorf("%s: label %q exact %v: fast %s, reference %s", sc.name, want, exact, labelNames(t, d, got), labelNamesRef(t, d, ref))
					continue
				}
				matched += len(got)
			}
		}
	}
	t.Logf("%d wanted texts, %d comparisons, %d matches", len(wants), compared, matched)
	if matched < 200 {
		t.Errorf("%d matches over all comparisons: the corpus proves little", matched)
	}
}

// TestLabelCountsSameAnswer checks in Chromium that FindCounts counts a
// label candidate as the reference (jsFindLabelRef) and Find answer it,
// for every wanted text of the corpus, exact and substring, over the
// document, a root element, a shadow host and a frame, in batches that
// mix label candidates with other strategies.
func TestLabelCountsSameAnswer(t *testing.T) {
	t.Parallel()
	d := shared(t)
	ctx := tctx(t, 5*time.Minute)
	lc := openLabelCorpus(t, ctx, d)
	const batch = 16
	var cands []locator.Candidate
	for _, want := range lc.wants {
		for _, exact := range []bool{true, false} {
			cands = append(cands, locator.Candidate{Strategy: locator.Label, Label: want, Exact: exact})
		}
	}
	// A test id and a CSS candidate in every batch: their counts are
	// known, and label candidates are counted beside other strategies.
	others := []locator.Candidate{{Strategy: locator.TestID, TestID: "none-such"}, {Strategy: locator.CSS, CSS: "input#a1"}}
	matched, compared := 0, 0
	for _, sc := range lc.scopes {
		wantOther := 0
		if sc.name == "document" || sc.name == "form" {
			wantOther = 1 // #a1 is in the form
		}
		for lo := 0; lo < len(cands); lo += batch {
			part := append(slices.Clone(cands[lo:min(lo+batch, len(cands))]), others...)
			// The page re-renders a list: retry a batch whose counts and
			// references straddled a re-render.
			for try := 0; ; try++ {
				n, err := d.FindCounts(ctx, sc.scope, sc.root, part)
				if err != nil {
					t.Fatalf("%s: FindCounts: %v", sc.name, err)
				}
				if len(n) != len(part) {
					t.Fatalf("%s: %d counts for %d candidates", sc.name, len(n), len(part))
				}
				var bad []string
				found := 0
				for i, c := range part[:len(part)-len(others)] {
					ref, err := lc.reference(sc.scope, sc.root, c)
					if err != nil {
						t.Fatalf("%s %q exact %v: reference: %v", sc.name, c.Label, c.Exact, err)
					}
					if n[i] != len(ref) {
						bad = append(bad, fmt.Sprintf("label %q exact %v: FindCounts %d, reference %d (%s)", c.Label, c.Exact, n[i], len(ref), labelNamesRef(t, d, ref)))
					}
					found += len(ref)
				}
				if k := len(part) - len(others); n[k] != 0 || n[k+1] != wantOther {
					bad = append(bad, fmt.Sprintf("others %v, want [0 %d]", n[k:], wantOther))
				}
				if len(bad) == 0 {
					matched += found
					break
				}
				if try == 3 {
					for _, b := range bad {
						t.Errorf("%s: %s", sc.name, b)
					}
					break
				}
				if try > 0 {
					waitRendered(t, ctx, d, lc.top)
				}
			}
			compared += len(part) - len(others)
		}
		// Find answers a sample of the same candidates with as many
		// elements: the counts and Find share the rule.
		for _, c := range cands[:min(len(cands), 40)] {
			n, err := d.FindCounts(ctx, sc.scope, sc.root, []locator.Candidate{c})
			if err != nil {
				t.Fatal(err)
			}
			els, err := d.Find(ctx, sc.scope, sc.root, c)
			if err != nil {
				t.Fatal(err)
			}
			if n[0] != len(els) {
				// One retry past the re-rendering list.
				waitRendered(t, ctx, d, lc.top)
				if n, err = d.FindCounts(ctx, sc.scope, sc.root, []locator.Candidate{c}); err != nil {
					t.Fatal(err)
				}
				if els, err = d.Find(ctx, sc.scope, sc.root, c); err != nil {
					t.Fatal(err)
				}
				if n[0] != len(els) {
					t.Errorf("%s: label %q exact %v: FindCounts %d, Find %d", sc.name, c.Label, c.Exact, n[0], len(els))
				}
			}
		}
	}
	t.Logf("%d comparisons, %d matches", compared, matched)
	if matched < 200 {
		t.Errorf("%d matches over all comparisons: the corpus proves little", matched)
	}
}

// waitRendered waits, bounded by ctx, for the corpus page's re-rendering
// list to have rendered for the last time (its render count n reaches 40),
// waking on each change of the document.
func waitRendered(t *testing.T, ctx context.Context, d *Driver, top runtime.Scope) {
	t.Helper()
	for {
		doc, err := d.document(ctx, d.top)
		if err != nil {
			t.Fatal(err)
		}
		var done bool
		if _, err := d.callOn(ctx, d.top.sid, doc, `function(){ return typeof n === 'number' && n >= 40 }`, true, &done); err != nil {
			t.Fatal(err)
		}
		if done {
			return
		}
		wctx, cancel := context.WithTimeout(ctx, time.Second)
		err = d.WaitChange(wctx, top)
		cancel()
		if err != nil && ctx.Err() != nil {
			t.Fatal(err)
		}
	}
}

// sameOrder reports whether got and ref are the same handles in the same
// order.
func sameOrder(got []runtime.Element, ref []*element) bool {
	if len(got) != len(ref) {
		return false
	}
	for i := range got {
		if got[i] != runtime.Element(ref[i]) {
			return false
		}
	}
	return true
}

func labelNamesRef(t *testing.T, d *Driver, els []*element) string {
	out := make([]runtime.Element, len(els))
	for i, e := range els {
		out[i] = e
	}
	return labelNames(t, d, out)
}

// labelNames names elements by tag and id, for failure messages.
func labelNames(t *testing.T, d *Driver, els []runtime.Element) string {
	var b strings.Builder
	b.WriteString("[")
	for i, e := range els {
		el := e.(*element)
		var s string
		if _, err := d.callOn(t.Context(), el.sid, el.obj, `function(){ return this.localName + '#' + this.id }`, true, &s); err != nil {
			s = err.Error()
		}
		if i > 0 {
			b.WriteString(" ")
		}
		b.WriteString(s)
	}
	b.WriteString("]")
	return b.String()
}

// BenchmarkLabelHelperCPU measures the renderer main thread's CPU time
// (Performance.getMetrics ThreadTime, which the machine's load inflates
// far less than wall time) of one label helper call on a fresh
// 10,000-control document: jsLabel, the lookup, beside jsFindLabelRef,
// jsFind's label case that it replaced.
func BenchmarkLabelHelperCPU(b *testing.B) {
	d := shared(b)
	s := sites(b)
	ctx := tctx(b, 10*time.Minute)
	threadMS := func() float64 {
		var m proto.PerformanceGetMetricsResult
		if err := d.call(ctx, d.top.sid, proto.PerformanceGetMetrics{}, &m); err != nil {
			b.Fatal(err)
		}
		for _, x := range m.Metrics {
			if x.Name == "ThreadTime" {
				return x.Value * 1000
			}
		}
		b.Fatal("no ThreadTime metric")
		return 0
	}
	for _, h := range []struct {
		name string
		fn   string
		args []callArg
	}{
		{"jsFindLabelRef", jsFindLabelRef, []callArg{val("Field 1999"), val(true), obj("")}},
		{"jsLabel", jsLabel, []callArg{val("Field 1999"), val(true), obj("")}},
	} {
		b.Run(h.name, func(b *testing.B) {
			i := 0
			var cpu float64
			for b.Loop() {
				b.StopTimer()
				i++
				if err := d.Navigate(ctx, fmt.Sprintf("%s/stress/controls/10000?cpu=%s%d", s.Stress.URL(), h.name, i)); err != nil {
					b.Fatal(err)
				}
				if err := d.call(ctx, d.top.sid, proto.PerformanceEnable{}, nil); err != nil {
					b.Fatal(err)
				}
				doc, err := d.document(ctx, d.top)
				if err != nil {
					b.Fatal(err)
				}
				t0 := threadMS()
				b.StartTimer()
				r, err := d.callOn(ctx, d.top.sid, doc, h.fn, false, nil, h.args...)
				b.StopTimer()
				if err != nil {
					b.Fatal(err)
				}
				cpu += threadMS() - t0
				if r.Description != "Array(1)" {
					b.Fatalf("%s = %s, want one element", h.name, r.Description)
				}
				b.StartTimer()
			}
			b.ReportMetric(cpu/float64(max(i, 1)), "page-cpu-ms/op")
		})
	}
}

// labelInertBody is a page of the label rule's inert and labelable
// cases: a wizard whose earlier step is inert with the same labels, a
// shadow tree inside an inert subtree, two <dialog>s opened modal and
// not, and form-associated custom elements (closed and open shadow
// roots, delegating focus or not) labelled by for, by wrapping and by
// aria-labelledby, beside a custom element that is not form-associated.
const labelInertBody = `<style>.box { display: inline-block; width: 20px; height: 10px; }</style>
<section inert><label for=n1>Name</label><input id=n1><label>Email <input id=e1></label></section>
<section><label for=n2>Name</label><input id=n2><label>Email <input id=e2></label></section>
<div inert><span id=h1></span></div>
<span id=h2></span>
<p><label for=q>Search</label><input id=q></p>
<p><label for=o1>Shared</label><input id=o1></p>
<dialog id=dlg><label for=o2>Shared</label><input id=o2><label for=o3>Dialog only</label><input id=o3></dialog>
<dialog id=dlg2><label for=o4>Shared</label><input id=o4></dialog>
<p><label for=f1>Full name</label><vera-face id=f1></vera-face></p>
<p><label>Work email <vera-face id=f2></vera-face></label></p>
<p><span id=f3l>Phone number</span><vera-face id=f3 aria-labelledby=f3l></vera-face></p>
<p><label for=f4>Fax line</label><vera-face id=f4 data-nodelegate></vera-face></p>
<p><label for=f5>Mobile</label><vera-face id=f5 data-open></vera-face></p>
<p><label for=p1>Plain custom</label><plain-el id=p1 class=box></plain-el></p>
<script>
for (const [id, inert] of [['h1', true], ['h2', false]]) {
  const r = document.getElementById(id).attachShadow({mode: 'open'});
  r.innerHTML = '<label>Code <input id=c' + (inert ? 1 : 2) + '></label>';
}
customElements.define('vera-face', class extends HTMLElement {
  static formAssociated = true;
  constructor() {
    super();
    this.internals = this.attachInternals();
    const r = this.attachShadow({mode: this.hasAttribute('data-open') ? 'open' : 'closed', delegatesFocus: !this.hasAttribute('data-nodelegate')});
    r.innerHTML = '<input>';
    this.inner = r.firstChild;
    this.inner.addEventListener('input', () => this.internals.setFormValue(this.inner.value));
  }
  get value() { return this.inner.value; }
});
customElements.define('plain-el', class extends HTMLElement {});
</script>`

// TestLabelInertAndCustom checks in Chromium the label rule's inert and
// labelable cases, exact and not: a control inside an inert subtree (an
// inert ancestor, or one above a shadow host) is no label match; while a
// modal dialog is open only the controls of the topmost one match, and
// once it is closed those outside match again (a dialog opened with
// show() makes nothing inert); a form-associated custom element is a
// match through <label for>, a wrapping label and aria-labelledby, a
// plain custom element is not. Find, FindCounts and the reference
// (jsFindLabelRef) agree on every answer.
func TestLabelInertAndCustom(t *testing.T) {
	t.Parallel()
	d := shared(t)
	ctx := tctx(t, 2*time.Minute)
	openLabelPage(t, ctx, d, labelInertBody)
	lc := labelRef(t, ctx, d)
	top, _, err := d.Frame(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	run := func(js string) {
		t.Helper()
		doc, err := d.document(ctx, d.top)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := d.callOn(ctx, d.top.sid, doc, `function(){ `+js+` }`, true, nil); err != nil {
			t.Fatal(err)
		}
	}
	check := func(step, label string, exact bool, want string) {
		t.Helper()
		c := locator.Candidate{Strategy: locator.Label, Label: label, Exact: exact}
		got, err := d.Find(ctx, top, nil, c)
		if err != nil {
			t.Fatalf("%s: label %q exact %v: %v", step, label, exact, err)
		}
		if s := labelNames(t, d, got); s != want {
			t.Errorf("%s: label %q exact %v: Find %s, want %s", step, label, exact, s, want)
		}
		n, err := d.FindCounts(ctx, top, nil, []locator.Candidate{c})
		if err != nil {
			t.Fatal(err)
		}
		if n[0] != len(got) {
			t.Errorf("%s: label %q exact %v: FindCounts %d, Find %d", step, label, exact, n[0], len(got))
		}
		ref, err := lc(top, nil, c)
		if err != nil {
			t.Fatal(err)
		}
		if !sameOrder(got, ref) {
			t.Errorf("%s: label %q exact %v: Find %s, reference %s", step, label, exact, labelNames(t, d, got), labelNamesRef(t, d, ref))
		}
	}
	for _, exact := range []bool{true, false} {
		name, email, code, shared, search := "Name", "Email", "Code", "Shared", "Search"
		if !exact {
			name, email, code, shared, search = "nam", "EMAIL", "cod", "hare", "earc"
		}
		// The inert wizard step and the inert shadow tree.
		wantName := "[input#n2]"
		if !exact {
			wantName = "[input#n2 vera-face#f1]" // "Full name" too
		}
		check("inert ancestor", name, exact, wantName)
		wantEmail := "[input#e2]"
		if !exact {
			wantEmail = "[input#e2 vera-face#f2]" // "Work email" too
		}
		check("inert ancestor", email, exact, wantEmail)
		check("inert shadow host", code, exact, "[input#c2]")
		// Modal dialogs.
		check("no dialog", shared, exact, "[input#o1]")
		run(`dlg.showModal()`)
		check("modal open", shared, exact, "[input#o2]")
		check("modal open", search, exact, "[]")
		check("modal open", "Dialog only", exact, "[input#o3]")
		check("modal open", "Full name", exact, "[]")
		run(`dlg2.showModal()`)
		check("second modal open", shared, exact, "[input#o4]")
		run(`dlg2.close()`)
		check("second modal closed", shared, exact, "[input#o2]")
		run(`dlg.close()`)
		check("modal closed", shared, exact, "[input#o1]")
		check("modal closed", search, exact, "[input#q]")
		run(`dlg.show()`)
		check("dialog shown, not modal", shared, exact, "[input#o1 input#o2]")
		run(`dlg.close()`)
		// Form-associated custom elements.
		full, work, phone := "Full name", "Work email", "Phone number"
		if !exact {
			full, work, phone = "full", "work EM", "PHONE"
		}
		check("custom element for", full, exact, "[vera-face#f1]")
		check("custom element wrapped", work, exact, "[vera-face#f2]")
		check("custom element labelledby", phone, exact, "[vera-face#f3]")
		check("custom element, not form-associated", "Plain custom", exact, "[]")
	}
}

// TestLabelFillCustom checks in Chromium that a fill of a form-associated
// custom element found by its label types into its focus delegate, the
// <input> inside its shadow root, closed or open, and that one whose
// shadow root does not delegate focus is refused as unsupported, typing
// nothing anywhere.
func TestLabelFillCustom(t *testing.T) {
	t.Parallel()
	d := shared(t)
	ctx := tctx(t, 2*time.Minute)
	openLabelPage(t, ctx, d, labelInertBody)
	top, _, err := d.Frame(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	value := func(e runtime.Element) string {
		t.Helper()
		var v string
		el := e.(*element)
		if _, err := d.callOn(ctx, el.sid, el.obj, `function(){ return this.value }`, true, &v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	find := func(label string) runtime.Element {
		t.Helper()
		els, err := d.Find(ctx, top, nil, locator.Candidate{Strategy: locator.Label, Label: label, Exact: true})
		if err != nil || len(els) != 1 {
			t.Fatalf("label %q: %d elements, %v", label, len(els), err)
		}
		return els[0]
	}
	for _, tc := range []struct{ label, value string }{
		{"Full name", "Ada Lovelace"}, {"Work email", "ada@example.org"}, {"Phone number", "+44 20 7946 0000"}, {"Mobile", "07700 900000"},
	} {
		el := find(tc.label)
		for _, v := range []string{tc.value, "x" + tc.value} { // a second fill replaces the first
			if err := d.Act(ctx, el, runtime.Act{Kind: runtime.ActFill, Value: v}); err != nil {
				t.Fatalf("fill %q: %v", tc.label, err)
			}
			if got := value(el); got != v {
				t.Errorf("fill %q with %q: the field holds %q", tc.label, v, got)
			}
		}
	}
	fax := find("Fax line")
	err = d.Act(ctx, fax, runtime.Act{Kind: runtime.ActFill, Value: "typed"})
	if !errors.Is(err, runtime.ErrUnsupported) {
		t.Errorf("fill of a host that does not delegate focus: %v, want ErrUnsupported", err)
	}
	if got := value(fax); got != "" {
		t.Errorf("the host that does not delegate focus holds %q", got)
	}
}

// openLabelPage opens body in the shared driver.
func openLabelPage(t *testing.T, ctx context.Context, d *Driver, body string) {
	t.Helper()
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		fmt.Fprint(w, "<!doctype html><html lang=en><title>Labels</title><body>"+body)
	}))
	t.Cleanup(site.Close)
	if err := d.Navigate(ctx, site.URL+"/"); err != nil {
		t.Fatal(err)
	}
}

// TestFillInertRefused checks in Chromium that a fill of a text field
// that cannot take the focus (inside an inert subtree, or outside an open
// modal dialog), found by a strategy that keeps inert elements (CSS),
// types nothing: not into it, not into the field that has the focus. It
// ends, with ctx, as not interactable (editable).
func TestFillInertRefused(t *testing.T) {
	t.Parallel()
	d := shared(t)
	ctx := tctx(t, 2*time.Minute)
	openLabelPage(t, ctx, d, labelInertBody)
	top, _, err := d.Frame(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	css := func(sel string) runtime.Element {
		t.Helper()
		els, err := d.Find(ctx, top, nil, locator.Candidate{Strategy: locator.CSS, CSS: sel})
		if err != nil || len(els) != 1 {
			t.Fatalf("%s: %d elements, %v", sel, len(els), err)
		}
		return els[0]
	}
	run := func(js string) {
		t.Helper()
		doc, err := d.document(ctx, d.top)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := d.callOn(ctx, d.top.sid, doc, `function(){ `+js+` }`, true, nil); err != nil {
			t.Fatal(err)
		}
	}
	values := func() string {
		t.Helper()
		doc, err := d.document(ctx, d.top)
		if err != nil {
			t.Fatal(err)
		}
		var v string
		if _, err := d.callOn(ctx, d.top.sid, doc, `function(){ return ['n1', 'n2', 'q', 'o2'].map(id => id + '=' + this.getElementById(id).value).join(' ') }`, true, &v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	for _, tc := range []struct{ name, setup, sel, focus, undo string }{
		{"inert ancestor", "", "#n1", "n2", ""},
		{"outside a modal dialog", "dlg.showModal()", "#q", "o2", "dlg.close()"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			run(`for (const id of ['n1', 'n2', 'q', 'o2']) document.getElementById(id).value = ''`)
			if tc.setup != "" {
				run(tc.setup)
			}
			run(`document.getElementById('` + tc.focus + `').focus()`)
			before := values()
			short, cancel := context.WithTimeout(ctx, 2*time.Second)
			err := d.Act(short, css(tc.sel), runtime.Act{Kind: runtime.ActFill, Value: "typed"})
			cancel()
			var ni *NotInteractableError
			if !errors.As(err, &ni) || ni.Check != CheckEditable {
				t.Errorf("fill %s: %v, want not interactable (editable)", tc.sel, err)
			}
			if after := values(); after != before {
				t.Errorf("fill %s typed somewhere: %s, before %s", tc.sel, after, before)
			}
			if tc.undo != "" {
				run(tc.undo)
			}
		})
	}
}
