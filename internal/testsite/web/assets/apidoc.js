// API docs in the style of Swagger UI, rendered the way a React app
// renders: one state object, setState merges into it and re-renders the
// whole tree under #root from it (every node is replaced on every
// change). Events are delegated from #root, as React does.
(function () {
  'use strict';
  var root = document.getElementById('root');
  var state = { spec: null, error: '', open: {}, tags: { pets: true, store: true }, tryOut: {}, params: {}, bodies: {}, responses: {} };

  function setState(patch) {
    Object.keys(patch).forEach(function (k) { state[k] = patch[k]; });
    render();
  }

  function el(tag, attrs, children) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === 'text') e.textContent = attrs[k];
      else if (attrs[k] !== null && attrs[k] !== undefined && attrs[k] !== false) e.setAttribute(k, attrs[k] === true ? '' : attrs[k]);
    });
    (children || []).forEach(function (c) { if (c) e.appendChild(typeof c === 'string' ? document.createTextNode(c) : c); });
    return e;
  }

  // pathNode renders "/api/pets/{petId}" with a <wbr> before every "/"
  // after the first, so long paths can break: Swagger UI does the same.
  function pathNode(path) {
    var span = el('span', { 'class': 'opblock-summary-path', 'data-path': path });
    path.split('/').forEach(function (seg, i) {
      if (i === 0) return;
      if (i > 1) span.appendChild(document.createElement('wbr'));
      span.appendChild(document.createTextNode('/' + seg));
    });
    return span;
  }

  function key(op) { return op.operationId; }

  function operation(op) {
    var k = key(op), open = !!state.open[k];
    var summary = el('button', { 'class': 'opblock-summary opblock-summary-' + op.method.toLowerCase(), type: 'button',
      'aria-expanded': open ? 'true' : 'false', 'data-op': k, 'data-action': 'toggle' }, [
      el('span', { 'class': 'opblock-summary-method', text: op.method }),
      pathNode(op.path),
      op.summary ? el('div', { 'class': 'opblock-summary-description', text: op.summary }) : null
    ]);
    var block = el('div', { 'class': 'opblock opblock-' + op.method.toLowerCase() + (open ? ' is-open' : ''), id: 'operations-' + op.tag + '-' + k }, [summary]);
    if (!open) return block;
    var trying = !!state.tryOut[k];
    var rows = (op.parameters || []).map(function (p) {
      var v = (state.params[k] || {})[p.name] || '';
      // As in Swagger UI, the input has a placeholder and no label.
      return el('tr', { 'data-param-name': p.name }, [
        el('td', { 'class': 'parameters-col_name' }, [el('div', { 'class': 'parameter__name', text: p.name }), el('div', { 'class': 'parameter__in', text: '(' + p['in'] + ')' })]),
        el('td', { 'class': 'parameters-col_description' }, [
          el('div', { 'class': 'markdown', text: p.description }),
          el('input', { type: 'text', placeholder: p.name, value: v, disabled: !trying, 'data-op': k, 'data-param': p.name })
        ])
      ]);
    });
    var body = el('div', { 'class': 'opblock-body' }, [
      el('div', { 'class': 'opblock-section-header' }, [
        el('h4', { 'class': 'opblock-title', text: 'Parameters' }),
        el('button', { 'class': 'try-out__btn', type: 'button', 'data-op': k, 'data-action': 'try', text: trying ? 'Cancel' : 'Try it out' })
      ]),
      rows.length ? el('table', { 'class': 'parameters' }, [el('tbody', {}, rows)]) : el('p', { 'class': 'opblock-description-wrapper', text: 'No parameters' }),
      // The request body editor has neither a label nor a placeholder:
      // a textbox without an accessible name, as in Swagger UI.
      op.requestBody ? el('div', { 'class': 'opblock-section-request-body' }, [
        el('h4', { 'class': 'opblock-title', text: 'Request body' }),
        (function () {
          var ta = el('textarea', { 'class': 'body-param__text', disabled: !trying, 'data-op': k, 'data-body': 'true' });
          ta.value = (state.bodies[k] !== undefined) ? state.bodies[k] : JSON.stringify(op.requestBody, null, 2);
          return ta;
        })()
      ]) : null,
      trying ? el('button', { 'class': 'execute', type: 'button', 'data-op': k, 'data-action': 'execute', text: 'Execute' }) : null
    ]);
    // As in Swagger UI: under "Responses", the live answer of the last
    // Execute ("Server response": a table with a header row and one
    // unnamed row holding the status cell and the JSON body), then the
    // documented responses, each with its code cell and an example JSON
    // block (the same codes as live answers: "200", "404").
    var resp = state.responses[k], wrapper = el('div', { 'class': 'responses-wrapper' }, [
      el('div', { 'class': 'opblock-section-header' }, [el('h4', { text: 'Responses' })])
    ]);
    if (resp && resp.loading) {
      wrapper.appendChild(el('div', { 'class': 'responses-inner', 'aria-busy': 'true' }, [el('p', { 'class': 'loading', text: 'Loading…' })]));
    } else if (resp) {
      wrapper.appendChild(el('div', { 'class': 'responses-inner' }, [
        el('h4', { text: 'Server response' }),
        el('table', { 'class': 'responses-table live-responses-table' }, [
          el('thead', {}, [el('tr', { 'class': 'responses-header' }, [el('td', { 'class': 'col_header', text: 'Code' }), el('td', { 'class': 'col_header', text: 'Details' })])]),
          el('tbody', {}, [el('tr', { 'class': 'response' }, [
            el('td', { 'class': 'response-col_status', text: String(resp.status) }),
            el('td', { 'class': 'response-col_description' }, [
              el('h5', { text: 'Response body' }),
              el('pre', { 'class': 'microlight', 'data-testid': 'response-body', text: resp.body })
            ])
          ])])
        ])
      ]));
    }
    wrapper.appendChild(el('h4', { 'class': 'responses-documented', text: 'Documented responses' }));
    wrapper.appendChild(el('table', { 'class': 'responses-table' }, [
      el('thead', {}, [el('tr', { 'class': 'responses-header' }, [el('td', { 'class': 'col_header', text: 'Code' }), el('td', { 'class': 'col_header', text: 'Description' })])]),
      el('tbody', {}, (op.responses || []).map(function (r) {
        return el('tr', { 'class': 'response' }, [
          el('td', { 'class': 'response-col_status', text: r.code }),
          el('td', { 'class': 'response-col_description' }, [
            el('div', { 'class': 'markdown', text: r.description }),
            r.example !== undefined ? el('pre', { 'class': 'example microlight', text: JSON.stringify(r.example, null, 2) }) : null
          ])
        ]);
      }))
    ]));
    body.appendChild(wrapper);
    block.appendChild(body);
    return block;
  }

  function render() {
    var kids = [];
    if (state.error) {
      kids.push(el('p', { role: 'alert', text: state.error }));
    } else if (!state.spec) {
      kids.push(el('p', { 'class': 'loading', text: 'Loading the API description…' }));
    } else {
      kids.push(el('h1', { 'class': 'title', text: state.spec.title }, [el('small', { text: ' ' + state.spec.version })]));
      kids.push(el('div', { 'class': 'info' }, (state.spec.description || '').split('\n\n').map(function (p) {
        return el('p', { 'class': 'info__description', text: p });
      })));
      var tags = [];
      state.spec.operations.forEach(function (op) { if (tags.indexOf(op.tag) < 0) tags.push(op.tag); });
      tags.forEach(function (t) {
        var open = !!state.tags[t];
        var sec = el('section', { 'class': 'opblock-tag-section' + (open ? ' is-open' : '') }, [
          el('h3', { 'class': 'opblock-tag' }, [el('button', { type: 'button', 'class': 'expand-operation', 'aria-expanded': open ? 'true' : 'false', 'data-tag': t, 'data-action': 'tag', text: t })])
        ]);
        if (open) {
          state.spec.operations.filter(function (op) { return op.tag === t; }).forEach(function (op) { sec.appendChild(operation(op)); });
        }
        kids.push(sec);
      });
    }
    root.replaceChildren.apply(root, kids);
    root.setAttribute('aria-busy', state.spec || state.error ? 'false' : 'true');
  }

  function toggle(map, k) { var m = Object.assign({}, map); m[k] = !m[k]; return m; }

  function find(k) {
    return state.spec.operations.filter(function (op) { return key(op) === k; })[0];
  }

  function execute(k) {
    var op = find(k), vals = state.params[k] || {}, url = op.path, query = [];
    (op.parameters || []).forEach(function (p) {
      var v = vals[p.name] || '';
      if (p['in'] === 'path') url = url.replace('{' + p.name + '}', encodeURIComponent(v));
      else if (v) query.push(encodeURIComponent(p.name) + '=' + encodeURIComponent(v));
    });
    if (query.length) url += '?' + query.join('&');
    var loading = Object.assign({}, state.responses); loading[k] = { loading: true }; setState({ responses: loading });
    fetch(url, { method: op.method === 'GET' ? 'GET' : op.method, headers: { accept: 'application/json' } }).then(function (r) {
      return r.text().then(function (t) { return { status: r.status, body: t.trim() }; });
    }).then(function (resp) {
      var rs = Object.assign({}, state.responses); rs[k] = resp; setState({ responses: rs });
    }, function () {
      var rs = Object.assign({}, state.responses); rs[k] = { status: 'Failed to fetch', body: '' }; setState({ responses: rs });
    });
  }

  root.addEventListener('click', function (ev) {
    var b = ev.target.closest('button[data-action]');
    if (!b) return;
    var k = b.getAttribute('data-op');
    switch (b.getAttribute('data-action')) {
      case 'tag': setState({ tags: toggle(state.tags, b.getAttribute('data-tag')) }); break;
      case 'toggle': setState({ open: toggle(state.open, k) }); break;
      case 'try': setState({ tryOut: toggle(state.tryOut, k) }); break;
      case 'execute': execute(k); break;
    }
  });
  // Controlled inputs: every keystroke goes into the state, as in React.
  root.addEventListener('input', function (ev) {
    var t = ev.target;
    if (!t.matches('input[data-param]')) return;
    var k = t.getAttribute('data-op'), ps = Object.assign({}, state.params);
    ps[k] = Object.assign({}, ps[k] || {}); ps[k][t.getAttribute('data-param')] = t.value;
    state.params = ps; // no re-render while typing: React keeps the same input node
  });
  root.addEventListener('input', function (ev) {
    var t = ev.target;
    if (!t.matches('textarea[data-body]')) return;
    var bs = Object.assign({}, state.bodies); bs[t.getAttribute('data-op')] = t.value; state.bodies = bs;
  });

  render();
  fetch('/api/openapi.json').then(function (r) { return r.json(); }).then(function (spec) {
    setState({ spec: spec });
  }, function () { setState({ error: 'Failed to load API definition.' }); });
})();
