// The answering form by hand, as a peer for bench/tti.sh: what askdesk's
// island does once hydrated, in plain DOM code. It restores and keeps a
// draft, lists what blocks Submit (and disables it), notes when Other text
// replaces a single choice, and sends answers or a decline as JSON.
// askdesk's page also opens an event stream; this one does not, which only
// makes it cheaper.
(() => {
  const form = document.querySelector("form.ask");
  const id = form.dataset.ask;
  const key = "askdesk-draft:" + id;
  const button = form.querySelector('button[value="answer"]');
  const list = document.getElementById("blockers");
  const questions = [...form.querySelectorAll("fieldset.question")].map((set) => ({
    set,
    id: set.querySelector("legend").id.replace(/-legend$/, ""),
    name: set.dataset.name,
    boxes: [...set.querySelectorAll("input[type=checkbox],input[type=radio]")],
    other: set.querySelector('[name^="other."]'),
    note: set.querySelector(".override"),
  }));

  const answers = () => questions.map((q) => ({
    id: q.id,
    selected: q.boxes.filter((b) => b.checked).map((b) => b.value),
    // Blank Other text is no answer; JSON.stringify leaves it out.
    custom: q.other.value.trim() ? q.other.value : undefined,
  }));

  const render = () => {
    const blockers = [];
    for (const q of questions) {
      const chosen = q.boxes.some((b) => b.checked);
      const typed = q.other.value.trim();
      if (!chosen && !typed) blockers.push([q, q.other.value ? "Other text is blank" : "unanswered"]);
      if (q.note) q.note.hidden = !(chosen && typed);
    }
    button.disabled = blockers.length > 0;
    if (blockers.length) button.setAttribute("aria-describedby", "blockers");
    else button.removeAttribute("aria-describedby");
    list.hidden = !blockers.length;
    list.lastChild.replaceChildren(...blockers.map(([q, reason]) => {
      const item = document.createElement("li");
      const link = document.createElement("a");
      link.href = `#${q.id}-legend`;
      link.textContent = q.name;
      item.append(link, ": " + reason);
      return item;
    }));
  };

  const saved = JSON.parse(localStorage.getItem(key) || "null");
  if (saved) {
    for (const [i, a] of saved.entries()) {
      for (const b of questions[i].boxes) b.checked = a.selected.includes(b.value);
      questions[i].other.value = a.custom ?? "";
    }
  }
  form.addEventListener("input", () => {
    localStorage.setItem(key, JSON.stringify(answers()));
    render();
  });

  const send = async (path, body) => {
    button.disabled = true;
    const response = await fetch(`/api/v1/asks/${id}/${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    if (response.ok) localStorage.removeItem(key);
    render();
  };
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    send("answers", { answers: answers() });
  });
  form.reason.nextSibling.addEventListener("click", (event) => {
    event.preventDefault();
    send("decline", { reason: form.reason.value });
  });

  render();
  document.body.dataset.hydrated = "";
})();
