package testsite

import (
	"fmt"
	"html"
	"net/http"
	"strings"
)

// roleNames are the texts the role corpus names its elements with:
// whitespace runs, case, non-ASCII letters (one whose case folding
// differs between languages), a no-break space, a zero-width space, a
// soft hyphen, a private-use icon code point, and no text at all.
var roleNames = []string{
	"Save",
	"  save \n  draft\t ",
	"SAVE Draft",
	"Sénd ünïcode",
	"İstanbul office",
	"Pay\u00a0now",
	"zero\u200bwidth",
	"soft\u00adhyphen",
	"icon \ue001 star",
	"",
	"Download report (PDF)",
	"Next → page 2",
	"x",
}

// roleSnippets are the corpus elements; {N} is replaced by the name text
// (escaped), {I} by a unique id. Every element under test has data-c.
var roleSnippets = []string{
	`<button data-c>{N}</button>`,
	`<button data-c type="submit">{N}</button>`,
	`<button data-c type="RESET">{N}</button>`,
	`<button data-c type="menu">{N}</button>`,
	`<button data-c disabled>{N}</button>`,
	`<button data-c class="rc-gen">{N}</button>`,
	`<button data-c class="rc-genafter">{N}</button>`,
	`<button data-c class="rc-upper">{N}</button>`,
	`<button data-c class="rc-firstup">{N}</button>`,
	`<button data-c class="rc-li">{N}</button>`,
	`<button data-c class="rc-hyph" lang="en">{N}</button>`,
	`<button data-c aria-label="Close dialog">{N}</button>`,
	`<span id="{I}-l">Labelled elsewhere</span><button data-c aria-labelledby="{I}-l">{N}</button>`,
	`<button data-c title="Tip text">{N}</button>`,
	`<button data-c title="Tip text"></button>`,
	`<button data-c><img alt="Icon alt" src="/pixel.png" width="4" height="4">{N}</button>`,
	`<button data-c>{N}<span style="display:none"> hidden part</span></button>`,
	`<button data-c>{N}<span style="visibility:hidden"> invisible part</span></button>`,
	`<button data-c>{N}<span aria-hidden="true"> aria hidden part</span></button>`,
	`<button data-c><span>{N}</span></button>`,
	`<button data-c><!-- comment -->{N}</button>`,
	`<button data-c role="link">{N}</button>`,
	`<button data-c role="presentation">{N}</button>`,
	`<button data-c role="none">{N}</button>`,
	`<button data-c aria-pressed="true">{N}</button>`,
	`<button data-c aria-expanded="false">{N}</button>`,
	`<button data-c aria-hidden="true">{N}</button>`,
	`<button data-c style="display:contents">{N}</button>`,
	`<button data-c is="x-fancy">{N}</button>`,
	`<button data-c popovertarget="rc-pop">{N}</button>`,
	`<button data-c id="{I}" name="n" value="v" tabindex="0" data-x="1" onclick="void 0">{N}</button>`,
	`<div aria-hidden="true"><button data-c>{N}</button></div>`,
	`<div aria-hidden="false"><button data-c>{N}</button></div>`,
	`<div inert><button data-c>{N}</button></div>`,
	`<div style="interactivity:inert"><button data-c>{N}</button></div>`,
	`<label>Wrapping label <button data-c>{N}</button></label>`,
	`<label for="{I}">For label</label><button data-c id="{I}">{N}</button>`,
	`<div role="button"><button data-c>{N}</button></div>`,
	`<div role="presentation"><button data-c>{N}</button></div>`,
	`<a href="#rc"><button data-c>{N}</button></a>`,
	`<div contenteditable="true"><button data-c>{N}</button></div>`,
	`<details open><summary>More</summary><button data-c>{N}</button></details>`,
	`<fieldset disabled><legend>Group</legend><button data-c>{N}</button></fieldset>`,
	`<x-wrap><button data-c>{N}</button></x-wrap>`,
	`<x-hidden><button data-c>{N}</button></x-hidden>`,
	`<x-rolebutton><button data-c>{N}</button></x-rolebutton>`,
	`<ul><li><button data-c>{N}</button></li></ul>`,
	`<table><tr><td><button data-c>{N}</button></td></tr></table>`,
	`<p style="text-transform:uppercase"><button data-c>{N}</button></p>`,
	`<div class="rc-open-host"><button data-c>{N}</button></div>`,
	`<div class="rc-closed-hidden"><button data-c>{N}</button></div>`,
	`<div class="rc-closed-hidden"><p><button data-c>{N}</button></p></div>`,
	`<div class="rc-closed-plain"><button data-c>{N}</button></div>`,
	`<span class="rc-closed-inbutton"><button data-c>{N}</button></span>`,
	`<div class="rc-shadow-button" data-n="{N}"></div>`,
	`<a data-c href="#a">{N}</a>`,
	`<a data-c>{N}</a>`,
	`<a data-c href="#a" role="button">{N}</a>`,
	`<a data-c href="#a" title="Link tip"></a>`,
	`<a data-c href="#a" aria-label="Labelled link">{N}</a>`,
	`<a data-c href="#a" class="rc-upper">{N}</a>`,
	`<a data-c href="#a" class="rc-gen">{N}</a>`,
	`<a data-c href="#a" target="_blank" rel="noopener">{N}</a>`,
	`<a data-c href="#a"><img alt="Logo" src="/pixel.png" width="4" height="4"></a>`,
	`<a data-c href="#a" style="display:block">{N}</a>`,
	`<a data-c href="#a" aria-describedby="rc-desc">{N}</a>`,
	`<a data-c href="">{N}</a>`,
	`<nav aria-hidden="true"><a data-c href="#a">{N}</a></nav>`,
	`<svg width="40" height="12"><a data-c href="#a"><text x="0" y="10">{N}</text></a></svg>`,
	`<input data-c type="button" value="{N}">`,
	`<input data-c type="submit" value="{N}">`,
	`<input data-c type="submit">`,
	`<input data-c type="reset" value="{N}">`,
	`<input data-c type="image" alt="{N}" src="/pixel.png" width="4" height="4">`,
	`<input data-c type="text" placeholder="{N}">`,
	`<input data-c type="text" value="{N}">`,
	`<input data-c type="button" value="{N}" aria-label="Labelled input">`,
	`<input data-c type="button" value="{N}" title="Input tip">`,
	`<input data-c type="BUTTON" value="{N}" class="rc-upper">`,
	`<label>Wrap <input data-c type="submit" value="{N}"></label>`,
	`<div data-c role="button" tabindex="0">{N}</div>`,
	`<span data-c role="link" tabindex="0">{N}</span>`,
	`<div data-c role="button" aria-label="Div label"></div>`,
	`<div data-c role="button link">{N}</div>`,
	`<h2 data-c>{N}</h2>`,
	`<h1 data-c>{N}</h1>`,
	`<h3 data-c class="rc-upper">{N}</h3>`,
	`<h4 data-c><span>{N}</span></h4>`,
	`<h2 data-c aria-level="3">{N}</h2>`,
	`<hgroup><h2 data-c>{N}</h2><p>Subtitle</p></hgroup>`,
	`<h2 data-c role="presentation">{N}</h2>`,
	`<h5 data-c title="Heading tip">{N}</h5>`,
	`<h6 data-c class="rc-gen">{N}</h6>`,
	`<section><h2 data-c id="{I}" class="x">{N}</h2></section>`,
	`<label for="{I}">{N}</label><input data-c id="{I}">`,
	`<label for="{I}">{N}</label><input data-c id="{I}" type="TEXT" name="q">`,
	`<label for="{I}">{N}</label><input data-c id="{I}" type="email" placeholder="you@example.com" required autocomplete="email">`,
	`<label for="{I}">{N}</label><input data-c id="{I}" type="tel" maxlength="20">`,
	`<label for="{I}">{N}</label><input data-c id="{I}" type="url" readonly>`,
	`<label for="{I}">{N}</label><input data-c id="{I}" type="search">`,
	`<label for="{I}">{N}</label><input data-c id="{I}" type="number" min="1" max="9" step="1">`,
	`<label for="{I}">{N}</label><input data-c id="{I}" type="password">`,
	`<label for="{I}">{N}</label><input data-c id="{I}" type="text" list="rc-list">`,
	`<label for="{I}">{N}</label><input data-c id="{I}" type="date">`,
	`<label for="{I}">{N}</label><input data-c id="{I}" type="bogus">`,
	`<label for="{I}">{N}</label><input data-c id="{I}" value="prefilled value">`,
	`<label for="{I}">{N}</label><input data-c id="{I}" disabled>`,
	`<label for="{I}">{N}</label><input data-c id="{I}" type="checkbox" checked>`,
	`<input data-c id="{I}" type="checkbox"><label for="{I}">{N}</label>`,
	`<label for="{I}">{N}</label><input data-c id="{I}" type="checkbox" switch>`,
	`<input data-c id="{I}" type="radio" name="{I}-g"><label for="{I}">{N}</label>`,
	`<label for="{I}">{N}</label><textarea data-c id="{I}" rows="2"></textarea>`,
	`<label for="{I}">{N}</label><select data-c id="{I}"><option>One</option><option>Two</option></select>`,
	`<label for="{I}">{N}</label><select data-c id="{I}" multiple><option>One</option></select>`,
	`<label for="{I}">{N}</label><select data-c id="{I}" size="3"><option>One</option></select>`,
	`<label for="{I}" class="rc-upper">{N}</label><input data-c id="{I}">`,
	`<label for="{I}" class="rc-gen">{N}</label><input data-c id="{I}">`,
	`<label for="{I}" class="rc-genafter">{N}</label><input data-c id="{I}" type="checkbox">`,
	`<label for="{I}" class="rc-firstup">{N}</label><input data-c id="{I}">`,
	`<label for="{I}" style="display:none">{N}</label><input data-c id="{I}">`,
	`<label for="{I}" style="position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap">{N}</label><input data-c id="{I}">`,
	`<label for="{I}" style="position:absolute;left:-9999px">{N}</label><input data-c id="{I}" type="checkbox">`,
	`<label for="{I}" style="opacity:0">{N}</label><input data-c id="{I}">`,
	`<label for="{I}" style="font-size:0">{N}</label><input data-c id="{I}">`,
	`<label for="{I}" style="visibility:hidden">{N}</label><input data-c id="{I}">`,
	`<label for="{I}" style="display:contents">{N}</label><input data-c id="{I}">`,
	`<label for="{I}" aria-hidden="true">{N}</label><input data-c id="{I}">`,
	`<label for="{I}" title="Label tip">{N}</label><input data-c id="{I}">`,
	`<div aria-hidden="true"><label for="{I}">{N}</label></div><input data-c id="{I}">`,
	`<div hidden><label for="{I}">{N}</label></div><input data-c id="{I}">`,
	`<label for="{I}"><b>{N}</b></label><input data-c id="{I}">`,
	`<label for="{I}">{N}</label><label for="{I}">Second label</label><input data-c id="{I}">`,
	`<label for="{I}">{N}</label><input data-c id="{I}" aria-label="Aria field">`,
	`<span id="{I}-l">Labelled field</span><label for="{I}">{N}</label><input data-c id="{I}" aria-labelledby="{I}-l">`,
	`<label for="{I}">{N}</label><input data-c id="{I}" title="Field tip">`,
	`<label>{N} <input data-c></label>`,
	`<label for="{I}">{N}</label><input data-c id="{I}" role="combobox">`,
	`<label for="{I}">{N}</label><input data-c id="{I}" style="text-transform:uppercase">`,
	`<div role="group"><label for="{I}">{N}</label></div><input data-c id="{I}">`,
	`<div class="rc-closed-hidden"><label for="{I}">{N}</label></div><input data-c id="{I}">`,
	`<div class="rc-closed-plain"><label for="{I}">{N}</label></div><input data-c id="{I}" type="checkbox">`,
	`<label for="{I}">{N}</label><div class="rc-closed-hidden"><input data-c id="{I}"></div>`,
	`<x-wrap><label for="{I}">{N}</label></x-wrap><input data-c id="{I}">`,
	`<div class="rc-open-host"><label for="{I}">{N}</label></div><input data-c id="{I}">`,
	`<label for="{I}">{N}</label><div contenteditable="true"><input data-c id="{I}"></div>`,
	`<fieldset><legend>Group legend</legend><label for="{I}">{N}</label><input data-c id="{I}" type="radio"></fieldset>`,
	`<div data-c role="button">{N}</div>`,
	`<span data-c role="button" tabindex="0" aria-label="{N}"></span>`,
	`<div data-c role="button" tabindex="0" aria-label="{N}"><svg width="8" height="8"><path d="M0 0h8v8z"/></svg></div>`,
	`<div data-c role="button" aria-label="Close panel">{N}</div>`,
	`<div data-c role="button" aria-label=" ">{N}</div>`,
	`<a data-c role="button">{N}</a>`,
	`<div data-c role="link" tabindex="0">{N}</div>`,
	`<div data-c role="checkbox" aria-checked="true" tabindex="0">{N}</div>`,
	`<span data-c role="checkbox">{N}</span>`,
	`<div data-c role="checkbox" aria-label="{N}"><input type="checkbox" tabindex="-1"></div>`,
	`<div role="radiogroup"><div data-c role="radio" aria-checked="false">{N}</div></div>`,
	`<div data-c role="radio">{N}</div>`,
	`<div data-c role="switch" aria-checked="false">{N}</div>`,
	`<div role="tablist"><div data-c role="tab" aria-selected="true" aria-controls="rc-desc">{N}</div></div>`,
	`<div data-c role="tab">{N}</div>`,
	`<ul role="tablist"><li data-c role="tab">{N}</li></ul>`,
	`<div role="menu"><div data-c role="menuitem">{N}</div></div>`,
	`<ul role="menubar"><li data-c role="menuitem" aria-haspopup="true">{N}</li></ul>`,
	`<ul role="menubar"><li data-c role="menuitem">{N}</li></ul>`,
	`<div data-c role="menuitem">{N}</div>`,
	`<div role="menu"><div data-c role="menuitemcheckbox" aria-checked="true">{N}</div></div>`,
	`<div role="menu"><div data-c role="menuitemradio" aria-checked="false">{N}</div></div>`,
	`<div role="listbox"><div data-c role="option" aria-selected="false">{N}</div></div>`,
	`<div data-c role="option">{N}</div>`,
	`<ul role="listbox"><li data-c role="option">{N}</li></ul>`,
	`<div role="tree"><div data-c role="treeitem" aria-level="1" aria-expanded="false">{N}</div></div>`,
	`<div data-c role="treeitem">{N}</div>`,
	`<div data-c role="heading" aria-level="3">{N}</div>`,
	`<div data-c role="heading">{N}</div>`,
	`<div data-c role="Button">{N}</div>`,
	`<div data-c role=" button ">{N}</div>`,
	`<div data-c role="none button">{N}</div>`,
	`<div data-c role="button" aria-pressed="false">{N}</div>`,
	`<div data-c role="button" aria-haspopup="menu">{N}</div>`,
	`<div data-c role="button" class="rc-upper">{N}</div>`,
	`<div data-c role="button" class="rc-gen" aria-label="{N}"></div>`,
	`<div data-c role="link"><span>{N}</span></div>`,
	`<div data-c role="button" title="Tip text">{N}</div>`,
	`<div role="button"><div data-c role="button">{N}</div></div>`,
	`<div role="radiogroup" aria-hidden="true"><div data-c role="radio">{N}</div></div>`,
	`<div role="presentation"><div data-c role="option">{N}</div></div>`,
	`<div role="group" aria-label="Group"><div data-c role="link">{N}</div></div>`,
	`<div role="toolbar"><button data-c>{N}</button></div>`,
	`<div role="group"><button data-c>{N}</button></div>`,
	`<div role="menu"><button data-c>{N}</button></div>`,
	`<div role="listbox"><a data-c href="#a">{N}</a></div>`,
	`<div role="tablist"><a data-c href="#a">{N}</a></div>`,
	`<div role="tree"><h3 data-c>{N}</h3></div>`,
	`<div role="radiogroup"><label for="{I}">{N}</label><input data-c id="{I}" type="radio"></div>`,
	`<div role="toolbar"><label for="{I}">{N}</label><input data-c id="{I}" type="search"></div>`,
	`<div class="rc-closed-hidden"><div data-c role="tab">{N}</div></div>`,
	`<div class="rc-open-host"><div data-c role="menuitem">{N}</div></div>`,
	`<div style="display:none"><div data-c role="option">{N}</div></div>`,
	`<div data-c role="heading" aria-level="2" style="visibility:hidden">{N}</div>`,
	`<div data-c role="button" tabindex="0" aria-expanded="true" aria-controls="rc-desc" aria-disabled="true">{N}</div>`,
	`<table><tbody><tr><td data-c>{N}</td><td>Other</td></tr></tbody></table>`,
	`<table><caption>Cap</caption><thead><tr><th>Head</th></tr></thead><tbody><tr><td data-c>{N}</td></tr></tbody></table>`,
	`<table><tr><td data-c colspan="2" rowspan="1">{N}</td></tr></table>`,
	`<table><thead><tr><td data-c>{N}</td></tr></thead></table>`,
	`<table><tfoot><tr><td data-c>{N}</td></tr></tfoot></table>`,
	`<table role="grid"><tr><td data-c>{N}</td></tr></table>`,
	`<table role="presentation"><tr><td data-c>{N}</td></tr></table>`,
	`<table role="table"><tr><td data-c>{N}</td></tr></table>`,
	`<div role="grid"><table><tr><td data-c>{N}</td></tr></table></div>`,
	`<div role="group"><table><tr><td data-c>{N}</td></tr></table></div>`,
	`<table style="display:block"><tr><td data-c>{N}</td></tr></table>`,
	`<table style="display:inline-table"><tr><td data-c>{N}</td></tr></table>`,
	`<table><tr><td data-c style="display:block">{N}</td></tr></table>`,
	`<table><tr style="display:flex"><td data-c>{N}</td></tr></table>`,
	`<table><tbody style="display:block"><tr><td data-c>{N}</td></tr></tbody></table>`,
	`<table><tr><td data-c><b>{N}</b></td></tr></table>`,
	`<table><tr><td data-c headers="x">{N}</td></tr></table>`,
	`<table><tr><td data-c aria-label="Cell label">{N}</td></tr></table>`,
	`<table><tr><td data-c title="Cell tip">{N}</td></tr></table>`,
	`<table><tr><th data-c>{N}</th></tr></table>`,
	`<table><tr><td><table><tr><td data-c>{N}</td></tr></table></td></tr></table>`,
	`<table><tr><td data-c class="rc-upper">{N}</td></tr></table>`,
	`<table><tr><td data-c class="rc-gen">{N}</td></tr></table>`,
	`<table aria-hidden="true"><tr><td data-c>{N}</td></tr></table>`,
	`<table><tr><td data-c>{N}</td></tr><tr><td>Second row</td></tr></table>`,
	`<table><tr><td data-c></td><td>{N}</td></tr></table>`,
	`<div class="rc-closed-hidden"><table><tr><td data-c>{N}</td></tr></table></div>`,
	`<table><tr><td data-c role="cell">{N}</td></tr></table>`,
	`<table role="grid"><caption>C</caption><tr><td data-c>{N}</td></tr></table>`,
	`<table role="presentation"><caption>C</caption><tr><td data-c>{N}</td></tr></table>`,
	`<div role="group"><table><caption>C</caption><tr><td data-c>{N}</td></tr></table></div>`,
	`<div role="row"><table><caption>C</caption><tr><td data-c>{N}</td></tr></table></div>`,
	`<table style="display:block"><caption>C</caption><tr><td data-c>{N}</td></tr></table>`,
	`<table style="display:inline-table"><caption>C</caption><tr><td data-c>{N}</td></tr></table>`,
	`<table style="display:grid"><caption>C</caption><tr><td data-c>{N}</td></tr></table>`,
	`<table><caption>C</caption><tr><td data-c style="display:block">{N}</td></tr></table>`,
	`<table><caption>C</caption><tr style="display:flex"><td data-c>{N}</td></tr></table>`,
	`<table><caption>C</caption><tbody style="display:block"><tr><td data-c>{N}</td></tr></tbody></table>`,
	`<table><caption>C</caption><tr><td data-c><b>{N}</b></td></tr></table>`,
	`<table><caption>C</caption><tr><td data-c class="rc-gen">{N}</td></tr></table>`,
	`<table><caption>C</caption><tr><td data-c class="rc-upper">{N}</td></tr></table>`,
	`<table><caption>C</caption><tr><td data-c headers="x">{N}</td></tr></table>`,
	`<table><caption>C</caption><tr><td data-c aria-hidden="true">{N}</td></tr></table>`,
	`<table><caption>C</caption><tr><td data-c style="visibility:hidden">{N}</td><td>Shown</td></tr></table>`,
	`<table><caption style="display:none">C</caption><tr><td data-c>{N}</td></tr></table>`,
	`<table><thead></thead><tbody><tr><td data-c>{N}</td></tr></tbody></table>`,
	`<table><caption>Outer</caption><tr><td><table><caption>Inner</caption><tr><td data-c>{N}</td></tr></table></td></tr></table>`,
	`<table><tr><td><table><caption>Inner</caption><tr><td data-c>{N}</td></tr></table></td></tr></table>`,
	`<table><caption>C</caption><tr><td data-c contenteditable="true">{N}</td></tr></table>`,
	`<table><caption>C</caption><tr><td data-c>{N}</td><td>{N}</td></tr><tr><td colspan="2" data-c>{N}</td></tr></table>`,
	`<div data-c role="link" aria-posinset="1" aria-setsize="3">{N}</div>`,
	`<span data-c role="switch" aria-checked="true" aria-label="{N}"></span>`,
	`<div role="tablist"><div data-c role="tab" aria-expanded="false" aria-selected="false">{N}</div></div>`,
	`<div role="tablist"><a data-c role="tab" href="#a">{N}</a></div>`,
	`<div role="listbox"><div data-c role="option" aria-checked="true" aria-disabled="true">{N}</div></div>`,
	`<div role="listbox"><div role="group"><div data-c role="option">{N}</div></div></div>`,
	`<div role="tree"><div role="group"><div data-c role="treeitem" aria-level="2">{N}</div></div></div>`,
	`<div data-c role="heading" aria-label="{N}">Shown heading</div>`,
	`<div role="menubar"><div role="menu"><span data-c role="menuitemradio" aria-checked="true">{N}</span></div></div>`,
}

// roleGroup is how many cases a div.rc-group holds (all with one name
// text, in data-name).
const roleGroup = 8

// roleCorpusScript makes the page's shadow trees and custom elements and,
// for ?modal=open|closed, opens a modal dialog (in the document, or in a
// closed shadow root no page script can see into).
const roleCorpusScript = `
customElements.define('x-hidden', class extends HTMLElement {
  constructor() { super(); const i = this.attachInternals(); i.ariaHidden = 'true'; }
});
customElements.define('x-rolebutton', class extends HTMLElement {
  constructor() { super(); const i = this.attachInternals(); i.role = 'button'; }
});
for (const h of document.querySelectorAll('.rc-open-host')) h.attachShadow({mode: 'open'}).innerHTML = '<div role="none"><slot></slot></div>';
for (const h of document.querySelectorAll('.rc-closed-hidden')) h.attachShadow({mode: 'closed'}).innerHTML = '<div aria-hidden="true"><slot></slot></div>';
for (const h of document.querySelectorAll('.rc-closed-plain')) h.attachShadow({mode: 'closed'}).innerHTML = '<slot></slot>';
for (const h of document.querySelectorAll('.rc-closed-inbutton')) h.attachShadow({mode: 'closed'}).innerHTML = '<div role="img" aria-label="Picture"><slot></slot></div>';
for (const h of document.querySelectorAll('.rc-shadow-button')) {
  const b = document.createElement('button');
  b.setAttribute('data-c', '');
  b.textContent = h.dataset.n;
  h.attachShadow({mode: 'open'}).append(b);
}
const modal = new URLSearchParams(location.search).get('modal');
if (modal === 'open') document.getElementById('rc-dialog').showModal();
if (modal === 'closed') {
  const h = document.getElementById('rc-modal-host');
  const r = h.attachShadow({mode: 'closed'});
  r.innerHTML = '<dialog><p>Closed modal</p><button>Inside</button></dialog>';
  r.firstChild.showModal();
}
if (new URLSearchParams(location.search).get('owns') === '1') {
  document.getElementById('rc-owner').setAttribute('aria-owns', document.querySelector('[data-c]').id = 'rc-owned');
}
`

// roleCorpus renders GET /stress/roles: h1 "Role corpus" and, for every
// snippet and name text, one element under test (data-c): native
// buttons, links and input buttons, headings, form fields of every
// common type named by a <label> (hidden, styled, doubled, wrapping,
// slotted or with a field of another role), elements with roles, named by text,
// aria-label, aria-labelledby, title, alt, placeholder, value, wrapping
// and for labels and CSS generated content, with hidden, invisible and
// aria-hidden children, inert, aria-hidden and role-carrying ancestors,
// open and closed shadow roots (slotted and not), custom elements with
// ElementInternals roles and aria-hidden, and text transforms. ?modal=open
// opens a modal dialog, ?modal=closed one inside a closed shadow root,
// ?owns=1 adds an aria-owns of the first element. Cases come in
// div.rc-group groups of eight with one name text (data-name), each case
// in its own div.rc-case.
func roleCorpus(w http.ResponseWriter, r *http.Request) {
	bw := pageStart(w, "Role corpus")
	bw.WriteString(`<style>
.rc-gen::before { content: "\2605  "; }
.rc-genafter::after { content: " more"; }
.rc-upper { text-transform: uppercase; }
.rc-firstup::first-letter { text-transform: uppercase; }
.rc-li { display: list-item; list-style: square inside; }
.rc-hyph { hyphens: auto; width: 3em; }
</style>
<h1>Role corpus</h1>
<div id="rc-owner" role="group" aria-label="Owner"></div>
<dialog id="rc-dialog"><p>Open modal</p><button>Dialog button</button></dialog>
<div id="rc-modal-host"></div>
<div id="rc-pop" popover>Popover</div>
<p id="rc-desc">Description</p>
<datalist id="rc-list"><option value="One"></option></datalist>
<div id="corpus">
`)
	id := 0
	for _, name := range roleNames {
		for i, sn := range roleSnippets {
			if i%roleGroup == 0 {
				fmt.Fprintf(bw, "<div class=\"rc-group\" data-name=\"%s\">\n", html.EscapeString(name))
			}
			id++
			sid := fmt.Sprintf("rc%d", id)
			el := strings.ReplaceAll(sn, "{I}", sid)
			el = strings.ReplaceAll(el, "{N}", html.EscapeString(name))
			fmt.Fprintf(bw, "<div class=\"rc-case\">%s</div>\n", el)
			if i%roleGroup == roleGroup-1 || i == len(roleSnippets)-1 {
				bw.WriteString("</div>\n")
			}
		}
	}
	bw.WriteString("</div>\n<script>" + roleCorpusScript + "</script>\n")
	pageEnd(bw)
}
