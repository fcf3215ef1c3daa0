// The answering form in React 19, as a peer for bench/tti.sh: the same
// markup and behaviour as askdesk's island (and bench/peers/vanilla). The
// page is rendered to HTML at build time and hydrated in the browser.
import { useEffect, useState } from "react";

const blank = (ask) => ask.request.questions.map(() => ({ selected: [], custom: "" }));
const draftKey = (ask) => `askdesk-draft:${ask.id}`;

function Question({ question, draft, edit }) {
  const { id, header, options, multiSelect } = question;
  const chosen = draft.selected.length > 0;
  const typed = draft.custom.trim() !== "";
  const toggle = (label, on) => edit((d) => ({
    ...d,
    selected: multiSelect
      ? (on ? [...d.selected, label] : d.selected.filter((l) => l !== label))
      : (on ? [label] : []),
  }));
  const setCustom = (custom) => edit((d) => ({ ...d, custom }));
  return (
    <fieldset className="question">
      <legend id={`${id}-legend`}>
        {header && <><span className="header">{header}</span>{" "}</>}
        <span className="text">{question.question}</span>
      </legend>
      {options.map((option, i) => (
        <div className="option" key={option.label}>
          <input
            type={multiSelect ? "checkbox" : "radio"}
            id={`${id}-option-${i}`}
            name={`answer.${id}`}
            value={option.label}
            aria-describedby={option.description ? `${id}-option-${i}-description` : undefined}
            checked={draft.selected.includes(option.label)}
            onChange={(e) => toggle(option.label, e.target.checked)}
          />
          <label htmlFor={`${id}-option-${i}`}>{option.label}</label>
          {option.description && (
            <span id={`${id}-option-${i}-description`} className="option-description">{option.description}</span>
          )}
        </div>
      ))}
      {options.length === 0 ? (
        <div className="free-text">
          <label htmlFor={`${id}-other`}>Your answer</label>
          <textarea id={`${id}-other`} name={`other.${id}`} rows={4} value={draft.custom}
            onChange={(e) => setCustom(e.target.value)} />
        </div>
      ) : (
        <div className="other">
          <label htmlFor={`${id}-other`}>Other</label>
          <input type="text" id={`${id}-other`} name={`other.${id}`} value={draft.custom}
            onChange={(e) => setCustom(e.target.value)} />
          {!multiSelect && chosen && typed && (
            <p className="override">Your Other text replaces the chosen option.</p>
          )}
        </div>
      )}
    </fieldset>
  );
}

export function App({ ask }) {
  const questions = ask.request.questions;
  const [drafts, setDrafts] = useState(() => blank(ask));
  const [reason, setReason] = useState("");
  const [hydrated, setHydrated] = useState(false);
  const [busy, setBusy] = useState(false);

  // Effects run only in the browser: once this one has, the page is live.
  useEffect(() => {
    const saved = JSON.parse(localStorage.getItem(draftKey(ask)) || "null");
    if (saved) setDrafts(saved);
    setHydrated(true);
    document.body.dataset.hydrated = "";
  }, []);

  const edit = (index) => (change) => setDrafts((all) => {
    const next = all.map((d, i) => (i === index ? change(d) : d));
    localStorage.setItem(draftKey(ask), JSON.stringify(next));
    return next;
  });
  const blockers = questions.flatMap((q, i) => {
    const d = drafts[i];
    if (d.selected.length || d.custom.trim()) return [];
    return [{ q, i, reason: d.custom ? "Other text is blank" : "unanswered" }];
  });
  const blocked = hydrated && blockers.length > 0;

  const send = async (path, body) => {
    setBusy(true);
    const response = await fetch(`/api/v1/asks/${ask.id}/${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    if (response.ok) localStorage.removeItem(draftKey(ask));
    setBusy(false);
  };
  const submit = (e) => {
    e.preventDefault();
    send("answers", {
      answers: questions.map((q, i) => ({
        id: q.id,
        selected: drafts[i].selected,
        custom: drafts[i].custom.trim() ? drafts[i].custom : undefined,
      })),
    });
  };
  const decline = (e) => {
    e.preventDefault();
    send("decline", { reason });
  };

  return (
    <form method="post" action={`/asks/${ask.id}`} className="ask" onSubmit={submit}>
      {questions.map((question, i) => (
        <Question key={question.id} question={question} draft={drafts[i]} edit={edit(i)} />
      ))}
      <div className="submit-row">
        <button type="submit" name="intent" value="answer" className="primary"
          disabled={blocked || busy} aria-describedby={blocked ? "blockers" : undefined}>
          Submit answers
        </button>
        {blocked && (
          <div className="blockers" id="blockers">
            <p>Submit becomes available once every question is answered:</p>
            <ul>
              {blockers.map(({ q, i, reason }) => (
                <li key={q.id}><a href={`#${q.id}-legend`}>{q.header ?? `Question ${i + 1}`}</a>: {reason}</li>
              ))}
            </ul>
          </div>
        )}
      </div>
      <details className="decline">
        <summary>Decline to answer</summary>
        <label htmlFor="decline-reason">Reason for the agent (optional)</label>
        <textarea id="decline-reason" name="reason" rows={3} value={reason}
          onChange={(e) => setReason(e.target.value)} />
        <button type="submit" name="intent" value="decline" formNoValidate disabled={busy} onClick={decline}>
          Decline
        </button>
      </details>
    </form>
  );
}
