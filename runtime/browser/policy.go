package browser

import (
	"context"
	"encoding/json"

	"github.com/go-rod/rod/lib/proto"
)

// policyWorld is the isolated world the connect policy is installed from.
// Page scripts cannot reach its globals, so they cannot interfere with it.
const policyWorld = "vera-connect-policy"

// policyScript returns the script that gives every new document of a
// target the scope's connect-src policy (see connectPolicy). It runs in
// an isolated world before any page script; as soon as the parser has
// created <head> (a MutationObserver callback, which runs at the
// microtask checkpoint before the parser executes the first script) it
// adds a <meta http-equiv="Content-Security-Policy"> there and removes
// it again: a policy, once delivered, stays in force for the document's
// life, and the page never sees the element. Documents with local URLs
// (about:blank, srcdoc, data:, blob:) and blob: workers inherit the
// policy from their creator, so the script leaves them alone (a second
// copy would report every refusal twice).
func policyScript(csp string) string {
	p, _ := json.Marshal(csp)
	return `(() => {
  // Local documents already inherit the policy from their creator.
  if (["about:", "data:", "blob:"].includes(location.protocol)) return;
  const policy = ` + string(p) + `;
  const add = () => {
    const head = document.head;
    if (!head) return false;
    const m = document.createElement("meta");
    m.httpEquiv = "Content-Security-Policy";
    m.content = policy;
    head.prepend(m);
    m.remove();
    return true;
  };
  if (add()) return;
  const mo = new MutationObserver(() => { if (add()) mo.disconnect(); });
  mo.observe(document, { childList: true, subtree: true });
})()`
}

// installPolicy replaces the connect-policy script of a page or frame
// target with the one for csp ("" removes it).
func (d *Driver) installPolicy(ctx context.Context, t *target, csp string) error {
	d.mu.Lock()
	old := t.policyScript
	t.policyScript = ""
	d.mu.Unlock()
	if old != "" {
		_ = d.call(ctx, t.sid, proto.PageRemoveScriptToEvaluateOnNewDocument{Identifier: old}, nil)
	}
	if csp == "" {
		return nil
	}
	var res proto.PageAddScriptToEvaluateOnNewDocumentResult
	if err := d.call(ctx, t.sid, proto.PageAddScriptToEvaluateOnNewDocument{Source: policyScript(csp), WorldName: policyWorld}, &res); err != nil {
		return err
	}
	d.mu.Lock()
	t.policyScript = res.Identifier
	d.mu.Unlock()
	return nil
}
