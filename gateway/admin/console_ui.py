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
