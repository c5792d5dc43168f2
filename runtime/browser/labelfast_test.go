package browser

import (
	"testing"
	"time"

	"github.com/vera-run/vera/locator"
)

// jsLabelCorpus adds labelled inputs whose label text renders unlike its
// textContent (case transforms, a Turkish dotted I, full-width forms,
// hidden and generated parts, spaces) and returns how many it added.
const jsLabelCorpus = `function() {
  const texts = ['Field 1999', 'field  1999', 'FIELD 1999', 'Straße', 'Istanbul', 'Fie<span style="display:none">XX</span>ld 1999',
    'Field<br>1999', 'Field&nbsp;1999', '<b>Field</b> 1999', 'Field 19<span>99</span>', 'Ｆｉｅｌｄ 1999', 'Feld 1999'];
  const styles = ['', 'text-transform:uppercase', 'text-transform:lowercase', 'text-transform:capitalize', 'text-transform:full-width', 'display:block'];
  let n = 0;
  const box = document.createElement('div');
  for (const t of texts) for (const st of styles) for (const lang of ['en', 'tr']) {
    n++;
    box.insertAdjacentHTML('beforeend', '<p><label for="lc' + n + '" lang="' + lang + '" style="' + st + '">' + t + '</label><input id="lc' + n + '" data-lc></p>');
  }
  box.insertAdjacentHTML('beforeend', '<style>.lc-gen::before{content:"Field "}</style><p><label for="lcg" class="lc-gen">1999</label><input id="lcg" data-lc></p>');
  box.insertAdjacentHTML('beforeend', '<p><span id="lcl" style="text-transform:uppercase">field 1999</span><input aria-labelledby="lcl" data-lc></p>');
  document.body.append(box);
  return n + 2;
}`

// jsLabelReference is the label match by rendered text (innerText) of
// every label, as the label strategy computed it before it skipped
// labels that cannot match: the indexes of the matching data-lc inputs.
const jsLabelReference = `function(want, exact) {
  const norm = s => (s == null ? '' : String(s)).replace(/\s+/g, ' ').trim();
  const w = norm(want), wl = w.toLowerCase();
  const m = s => { const n = norm(s); return exact ? n === w : n.toLowerCase().includes(wl); };
  const out = [];
  document.querySelectorAll('[data-lc]').forEach((e, i) => {
    const t = Array.from(e.labels, l => l.innerText || l.textContent);
    const ids = e.getAttribute('aria-labelledby');
    if (ids) for (const id of ids.split(/\s+/)) { const r = document.getElementById(id); if (r) t.push(r.innerText || r.textContent); }
    if (t.some(m)) out.push(i);
  });
  return out;
}`

// TestLabelSkipSameAnswer checks in Chromium that skipping the layout of
// labels that cannot match changes no answer: for many wanted texts,
// exact and substring, the label strategy finds exactly the inputs the
// rendered text of every label gives.
func TestLabelSkipSameAnswer(t *testing.T) {
	t.Parallel()
	d := shared(t)
	s := sites(t)
	ctx := tctx(t, 2*time.Minute)
	if err := d.Navigate(ctx, s.Stress.URL()+"/stress/nodes/1"); err != nil {
		t.Fatal(err)
	}
	doc, err := d.document(ctx, d.top)
	if err != nil {
		t.Fatal(err)
	}
	var n int
	if _, err := d.callOn(ctx, d.top.sid, doc, jsLabelCorpus, true, &n); err != nil {
		t.Fatal(err)
	}
	r, err := d.callOn(ctx, d.top.sid, doc, `function(){ return Array.from(this.querySelectorAll('[data-lc]')) }`, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	objs, err := d.arrayObjects(ctx, d.top.sid, r)
	if err != nil {
		t.Fatal(err)
	}
	inputs, err := d.handles(ctx, d.top, objs)
	if err != nil || len(inputs) != n {
		t.Fatalf("%d inputs of %d, %v", len(inputs), n, err)
	}
	total := 0
	for _, want := range []string{"Field 1999", "FIELD 1999", "field 1999", "Field", "1999", "d 19", "Straße", "STRASSE", "strasse",
		"Istanbul", "İSTANBUL", "ISTANBUL", "ıstanbul", "Ｆｉｅｌｄ", "ＦＩＥＬＤ 1999", "Field1999", "Feld", "XX", "Fie"} {
		for _, exact := range []bool{true, false} {
			var ref []int
			if _, err := d.callOn(ctx, d.top.sid, doc, jsLabelReference, true, &ref, val(want), val(exact)); err != nil {
				t.Fatal(err)
			}
			got, err := d.Find(ctx, nil, nil, locator.Candidate{Strategy: locator.Label, Label: want, Exact: exact})
			if err != nil {
				t.Fatal(err)
			}
			var idx []int
			for _, g := range got {
				for i, in := range inputs {
					if g == in {
						idx = append(idx, i)
					}
				}
			}
			if len(idx) != len(got) || len(idx) != len(ref) {
				t.Errorf("label %q exact %v: Find %v (%d), rendered text %v", want, exact, idx, len(got), ref)
				continue
			}
			for i := range idx {
				if idx[i] != ref[i] {
					t.Errorf("label %q exact %v: Find %v, rendered text %v", want, exact, idx, ref)
					break
				}
			}
			total += len(ref)
		}
	}
	if total < 50 {
		t.Errorf("%d matches over all wanted texts: the corpus proves little", total)
	}
}
