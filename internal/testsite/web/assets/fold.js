// The fold app: a small single-page app in the style of a React app. The
// HTML has an empty #root; this script mounts the UI into it, keeps its
// state in one object, handles clicks with one listener on the root (as
// React does) and re-renders after every state change and on a clock.
// Controls sit where real layouts put them: across the bottom and the
// right edge of the window, above the top under a sticky header, inside
// a scrolled container, and in nested scrolled containers of an iframe.
// Every click on a control is counted in its data-clicks attribute and
// its <output id="count-ID">.
(function () {
  'use strict';
  const root = document.getElementById('root');
  const framed = document.body.classList.contains('fold-frame');
  const params = new URLSearchParams(location.search);
  const state = { clicks: {}, ticks: 0, total: 0 };

  const h = (tag, attrs, ...kids) => {
    const el = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === 'style') el.style.cssText = v; else el.setAttribute(k, v);
    }
    for (const k of kids) el.append(k);
    return el;
  };
  const control = (id, label, style) =>
    h('button', { type: 'button', id, class: 'fold-control', 'data-clicks': '0', style }, label);
  const counter = id => h('output', { id: 'count-' + id }, '0');

  let header, summary, controls;
  function mount() {
    if (framed) {
      // Nested scrolled containers: the button is inside the frame's
      // viewport but below the visible areas of the inner and the outer
      // container (and the frame itself is across the window's bottom).
      const inner = h('div', { id: 'inner', class: 'fold-pane', style: 'height:120px' },
        h('div', { class: 'spacer', style: 'height:150px' }, 'Inner content'),
        control('framed', 'Framed action', ''), counter('framed'),
        h('div', { class: 'spacer', style: 'height:200px' }));
      const outer = h('div', { id: 'outer', class: 'fold-pane', style: 'height:200px' },
        h('div', { class: 'spacer', style: 'height:60px' }, 'Outer content'), inner,
        h('div', { class: 'spacer', style: 'height:300px' }));
      root.append(h('h1', {}, 'Framed panel'), outer);
      controls = ['framed'];
      return;
    }
    header = h('header', { id: 'topbar', class: 'sticky' });
    summary = h('span', { class: 'summary' });
    const zone = h('section', { id: 'zone', class: 'fold-zone' },
      // In a scrolled container, below its visible area.
      h('div', { id: 'pane', class: 'fold-pane', style: 'position:absolute;top:120px;left:16px;width:280px;height:180px' },
        h('div', { class: 'spacer', style: 'height:400px' }, 'Recent activity'),
        control('in-pane', 'Pane action', ''), counter('in-pane'),
        h('div', { class: 'spacer', style: 'height:300px' })),
      // Across the right edge of the window.
      control('right', 'Right action', 'position:absolute;top:330px;left:calc(100% - 50px);width:120px;height:40px'),
      counter('right'),
      // Across the bottom edge of the window (its centre just below it).
      control('below', 'Below action', 'position:absolute;top:calc(100vh - 84px);left:16px;width:140px;height:40px'),
      counter('below'),
      // An iframe across the bottom edge, with nested scrolled containers.
      // ?frame=localhost loads it from localhost:<port>, another
      // site than 127.0.0.1: an out-of-process frame.
      h('iframe', { id: 'panel', title: 'Panel', src: (params.get('frame') === 'localhost' ? location.protocol + '//localhost:' + location.port : '') + '/stress/fold/frame', style: 'position:absolute;top:calc(100vh - 200px);left:170px;width:200px;height:320px' }),
      // Far down: the deep link of ?top=above leaves it across the top
      // edge, under the sticky header.
      control('above', 'Above action', 'position:absolute;top:150vh;left:16px;width:140px;height:40px'),
      counter('above'),
      // A styled checkbox well below the fold: the native input is
      // transparent, under the drawn box of its label.
      h('label', { id: 'agree-label', style: 'position:absolute;top:calc(100vh + 300px);left:16px;padding-left:28px;line-height:20px' },
        h('input', { type: 'checkbox', id: 'agree', style: 'position:absolute;left:0;top:0;width:20px;height:20px;margin:0;opacity:0' }),
        h('span', { class: 'box', style: 'position:absolute;left:0;top:0;width:20px;height:20px;border:1px solid #24478f;background:#fff' }),
        'Email me'));
    root.append(header, zone);
    controls = ['in-pane', 'right', 'below', 'above'];
    if (params.get('modal') === '1' || location.pathname === '/stress/fold/modal') {
      root.append(h('div', { class: 'modal-backdrop' }),
        h('div', { class: 'dialog', role: 'dialog', 'aria-label': 'Session expired' },
          h('h2', {}, 'Session expired'), h('p', {}, 'Sign in again to continue.')));
    } else if (location.pathname === '/stress/fold/busy') {
      // A busy overlay that never lifts: no dialog, only a cover.
      root.append(h('div', { class: 'modal-backdrop busy' }, 'Saving...'));
    }
  }

  function render() {
    for (const id of controls) {
      const n = String(state.clicks[id] || 0);
      document.getElementById(id).setAttribute('data-clicks', n);
      document.getElementById('count-' + id).textContent = n;
    }
    if (header) {
      // The header re-renders from scratch, as a component without keys.
      summary.textContent = state.total + ' clicks';
      header.replaceChildren(h('strong', {}, 'Fold app'), summary, h('span', { class: 'clock' }, 'tick ' + state.ticks));
    }
  }

  mount();
  render();
  root.addEventListener('click', ev => {
    const b = ev.target.closest('button.fold-control');
    if (!b) return;
    state.clicks[b.id] = (state.clicks[b.id] || 0) + 1;
    state.total++;
    render();
  });
  if (!framed) setInterval(() => { state.ticks++; render(); }, 250);
  // A deep link restores the scroll position of a control: its centre
  // 4 px above the top edge of the window.
  const top = params.get('top');
  if (top && document.getElementById(top)) {
    const r = document.getElementById(top).getBoundingClientRect();
    window.scrollTo(0, window.scrollY + r.top + r.height / 2 + 4);
  }
  // ?under=<id>: the control wholly in the window but under the sticky
  // header (its top 12 px below the top edge).
  const under = params.get('under');
  if (under && document.getElementById(under)) {
    const r = document.getElementById(under).getBoundingClientRect();
    window.scrollTo(0, window.scrollY + r.top - 12);
  }
  root.setAttribute('data-ready', 'true');
})();
