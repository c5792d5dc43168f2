// Web components of /stress/components/<n>: open shadow roots nested two
// deep, slotted labels and buttons, a custom element that is a button
// through ElementInternals, and one closed shadow root. Everything a
// locator needs lives inside the shadow trees, as on sites built with Lit
// or Stencil.
(function () {
  'use strict';

  function sheet(css) {
    var s = document.createElement('style');
    s.textContent = css;
    return s;
  }

  // <sync-action>: the "Sincronizza" button, inside its own shadow root.
  // A click asks the enclosing panel to synchronise (a composed event).
  class SyncAction extends HTMLElement {
    constructor() {
      super();
      var root = this.attachShadow({ mode: 'open' });
      root.appendChild(sheet('button { font: inherit; padding: 0.4em 1em; }'));
      var b = document.createElement('button');
      b.type = 'button';
      b.id = 'sync';
      b.className = 'primary';
      b.textContent = 'Sincronizza';
      b.addEventListener('click', function () {
        b.dispatchEvent(new CustomEvent('sync-request', { bubbles: true, composed: true }));
      });
      root.appendChild(b);
    }
  }

  // <sync-panel>: a section with a heading, a status line (test id
  // sync-status) and a <sync-action> in its shadow root. After a sync
  // request the status reads "Sincronizzazione completata" (a moment
  // later, as after a fetch).
  class SyncPanel extends HTMLElement {
    constructor() {
      super();
      var root = this.attachShadow({ mode: 'open' });
      root.appendChild(sheet(':host { display: block; border: 1px solid #ccc; padding: 0.5em; margin: 0.5em 0; }'));
      var section = document.createElement('section');
      section.setAttribute('aria-labelledby', 'sync-title');
      var h = document.createElement('h2');
      h.id = 'sync-title';
      h.textContent = 'Sincronizzazione';
      var status = document.createElement('p');
      status.className = 'status';
      status.setAttribute('data-testid', 'sync-status');
      status.setAttribute('role', 'status');
      status.textContent = 'Ultima sincronizzazione: mai';
      section.appendChild(h);
      section.appendChild(status);
      section.appendChild(document.createElement('sync-action'));
      root.appendChild(section);
      this.addEventListener('sync-request', function () {
        status.textContent = 'Sincronizzazione in corso';
        window.setTimeout(function () { status.textContent = 'Sincronizzazione completata'; }, 150);
      });
    }
  }

  // <icon-button>: a custom element that is itself a button (role from
  // ElementInternals, focusable), named by the text in its shadow root.
  class IconButton extends HTMLElement {
    constructor() {
      super();
      this._internals = this.attachInternals();
      this._internals.role = 'button';
      var root = this.attachShadow({ mode: 'open' });
      root.appendChild(sheet(':host { display: inline-block; border: 1px solid #888; padding: 0.3em 0.8em; cursor: pointer; }'));
      var icon = document.createElement('span');
      icon.setAttribute('aria-hidden', 'true');
      icon.textContent = '\u21bb ';
      var label = document.createElement('span');
      label.className = 'label';
      label.textContent = this.getAttribute('label') || '';
      root.appendChild(icon);
      root.appendChild(label);
      var self = this;
      this.addEventListener('click', function () {
        var n = Number(self.getAttribute('data-clicks') || '0') + 1;
        self.setAttribute('data-clicks', String(n));
      });
    }
    connectedCallback() {
      if (!this.hasAttribute('tabindex')) this.tabIndex = 0;
    }
  }

  // <form-field>: a labelled text field. The label text is slotted
  // (slot="label"); the <label for> and the <input> live in the shadow
  // root; data-placeholder="…" becomes the input's placeholder.
  class FormField extends HTMLElement {
    constructor() {
      super();
      var root = this.attachShadow({ mode: 'open' });
      root.appendChild(sheet(':host { display: block; margin: 0.3em 0; } label { margin-right: 0.5em; }'));
      var label = document.createElement('label');
      label.htmlFor = 'control';
      var slot = document.createElement('slot');
      slot.name = 'label';
      label.appendChild(slot);
      var input = document.createElement('input');
      input.id = 'control';
      input.type = 'text';
      input.name = this.getAttribute('name') || '';
      if (this.hasAttribute('data-placeholder')) input.placeholder = this.getAttribute('data-placeholder');
      root.appendChild(label);
      root.appendChild(input);
    }
  }

  // <action-bar>: a toolbar whose buttons are light-DOM children slotted
  // into its shadow root.
  class ActionBar extends HTMLElement {
    constructor() {
      super();
      var root = this.attachShadow({ mode: 'open' });
      root.appendChild(sheet('.bar { display: flex; gap: 0.5em; padding: 0.3em; background: #f4f4f4; }'));
      var bar = document.createElement('div');
      bar.className = 'bar';
      bar.setAttribute('role', 'toolbar');
      bar.setAttribute('aria-label', 'Azioni');
      bar.appendChild(document.createElement('slot'));
      root.appendChild(bar);
    }
  }

  // <closed-widget>: the same kind of content behind a closed shadow root,
  // which no page script (and no locator) can enter.
  class ClosedWidget extends HTMLElement {
    constructor() {
      super();
      var root = this.attachShadow({ mode: 'closed' });
      var p = document.createElement('p');
      p.textContent = 'Contenuto riservato';
      var b = document.createElement('button');
      b.type = 'button';
      b.textContent = 'Segreto';
      root.appendChild(p);
      root.appendChild(b);
    }
  }

  customElements.define('sync-action', SyncAction);
  customElements.define('sync-panel', SyncPanel);
  customElements.define('icon-button', IconButton);
  customElements.define('form-field', FormField);
  customElements.define('action-bar', ActionBar);
  customElements.define('closed-widget', ClosedWidget);
})();
