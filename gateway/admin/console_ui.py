"""The console pages' one script: a button posts JSON to the admin API (same origin, the session
cookie) and reloads the page; a refusal (403 for a viewer, say) is shown beside the button."""
from __future__ import annotations

import gateway.admin.html as html

ACTION_SCRIPT = html.tag("script", html.Safe("""
document.addEventListener('click', async (ev) => {
  const button = ev.target.closest('button[data-post]');
  if (!button) return;
  ev.preventDefault();
  const box = button.form ? button.form.querySelector('[name=note],[name=text]') : null;
  const field = box ? box.name : null;
  const body = field ? JSON.stringify({[field]: box.value}) : '{}';
  const out = button.parentElement.querySelector('.result');
  const answer = await fetch(button.dataset.post, {method: 'POST', headers: {'Content-Type': 'application/json'},
                                                   body: body, credentials: 'same-origin'});
  if (answer.ok) { location.reload(); return; }
  const detail = await answer.json().catch(() => ({}));
  if (out) out.textContent = answer.status + ': ' + (detail.detail || answer.statusText);
});
"""))


def action_button(url: str, label: str, *, note: bool = False, text_field: str | None = None) -> html.Safe:
    """A button posting to `url`; with `note` a note box, with `text_field` a text area of that name."""
    boxes = []
    if note:
        boxes.append(html.tag("input", name="note", placeholder="note (optional)", maxlength="2000"))
    if text_field:
        boxes.append(html.tag("textarea", name=text_field, placeholder="Write to the person", maxlength="1600"))
    return html.tag("form", *boxes, html.tag("button", label, type="button", data_post=url),
                    html.tag("span", class_="result muted"), class_="inline")


# A live region: `<div id=... data-live="escalation conversation" data-live-id="...">`. On a matching
# event from /admin/api/stream (its id, when data-live-id names one) the page is fetched again and
# the region's contents replaced, so the server renders it exactly as on a reload. EventSource
# reconnects by itself with Last-Event-ID.
LIVE_SCRIPT = html.tag("script", html.Safe("""
// Opened after the load event: a stream opened before it would keep the page loading forever.
window.addEventListener('load', () => {
  const regions = [...document.querySelectorAll('[data-live]')];
  if (!regions.length || !window.EventSource) return;
  const source = new EventSource('/admin/api/stream');
  let timer = null;
  const refresh = async () => {
    const answer = await fetch(location.href, {credentials: 'same-origin', headers: {'Accept': 'text/html'}});
    if (!answer.ok) return;
    const fresh = new DOMParser().parseFromString(await answer.text(), 'text/html');
    for (const region of regions) {
      const next = fresh.getElementById(region.id);
      if (next) region.innerHTML = next.innerHTML;
    }
    document.body.dataset.refreshed = String(Number(document.body.dataset.refreshed || 0) + 1);
  };
  const wanted = (kind, data) => regions.some((r) => r.dataset.live.split(' ').includes(kind)
                                               && (!r.dataset.liveId || r.dataset.liveId === data.id));
  for (const kind of ['escalation', 'conversation', 'work_order']) {
    source.addEventListener(kind, (ev) => {
      if (!wanted(kind, JSON.parse(ev.data))) return;
      clearTimeout(timer);
      timer = setTimeout(refresh, 100);
    });
  }
  source.addEventListener('reset', () => location.reload());
});
"""))
