//! Answering in a client on MCP 2026-07-28, which sends no requests from
//! server to client: `ask_user` returns its form as an
//! `InputRequiredResult`, and the client calls again with the person's
//! reply (`inputResponses`) and the `requestState` it was given.
//!
//! The state names the ask and how many replies were refused, nothing
//! else: the ask's id is already the capability to answer it, and the
//! retried call must carry the ask's own questions, so a forged or
//! borrowed state gains nothing. Nothing is kept in the process, so any
//! instance can take the retry.

use super::elicit::Form;
use rmcp::model::{ElicitResult, InputRequest, InputRequests, InputRequiredResult, InputResponses};

/// The key of the form among the result's `inputRequests`.
pub const KEY: &str = "answer";

/// What every state askdesk gives starts with, with its layout's version.
const PREFIX: &str = "askdesk.1.";

/// Where one client's answering of an ask is: `askdesk.1.<ask id>.<refused>`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoundState {
    /// The ask.
    pub id: String,
    /// How many of the client's replies the validator refused so far.
    pub refused: usize,
}

impl RoundState {
    /// The first round of the ask `id`.
    pub fn first(id: &str) -> Self {
        Self {
            id: id.to_owned(),
            refused: 0,
        }
    }

    /// The round after a refused reply.
    pub fn after_refusal(&self) -> Self {
        Self {
            id: self.id.clone(),
            refused: self.refused + 1,
        }
    }

    /// The state as the client echoes it.
    pub fn encode(&self) -> String {
        format!("{PREFIX}{}.{}", self.id, self.refused)
    }

    /// A state askdesk gave; `None` for anything else.
    pub fn parse(text: &str) -> Option<Self> {
        let (id, refused) = text.strip_prefix(PREFIX)?.split_once('.')?;
        let id = desk::AskId::parse(id)?;
        let digits = !refused.is_empty() && refused.bytes().all(|b| b.is_ascii_digit());
        Some(Self {
            id: id.as_str().to_owned(),
            refused: digits.then(|| refused.parse().ok()).flatten()?,
        })
    }
}

/// The result that puts `form` to the client under `message`.
pub fn form_result(form: &Form, message: String, state: &RoundState) -> InputRequiredResult {
    let form = InputRequest::Elicitation(form.request(message));
    let requests = InputRequests::from([(KEY.to_owned(), form)]);
    InputRequiredResult::new(Some(requests), Some(state.encode()))
}

/// The client's reply to the form among a retried call's `inputResponses`:
/// `None` when it sent none, an error naming what is wrong when it is not
/// an elicitation result.
pub fn reply(responses: Option<&InputResponses>) -> Result<Option<ElicitResult>, String> {
    let Some(reply) = responses.and_then(|r| r.get(KEY)) else {
        return Ok(None);
    };
    serde_json::from_value(reply.clone())
        .map(Some)
        .map_err(|e| format!("inputResponses.{KEY} is not an elicitation result: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use interaction::{Request, ValidRequest};
    use rmcp::model::ElicitationAction;
    use serde_json::json;

    const ID: &str = "0123456789abcdef0123456789abcdef";

    #[test]
    fn states_read_back_and_nothing_else_reads() {
        let state = RoundState::first(ID).after_refusal();
        assert_eq!(state.encode(), format!("askdesk.1.{ID}.1"));
        assert_eq!(RoundState::parse(&state.encode()), Some(state));
        for text in [
            "",
            "askdesk.1.",
            &format!("askdesk.2.{ID}.0"),
            &format!("askdesk.1.{ID}"),
            &format!("askdesk.1.{ID}."),
            &format!("askdesk.1.{ID}.-1"),
            &format!("askdesk.1.{ID}.1.2"),
            "askdesk.1.0123.0",
            &format!("askdesk.1.{}.0", ID.to_uppercase()),
        ] {
            assert_eq!(RoundState::parse(text), None, "{text}");
        }
    }

    #[test]
    fn the_form_goes_out_as_one_elicitation_with_the_state() {
        let request: Request = serde_json::from_value(json!({"questions": [
            {"id": "db", "question": "Which?", "options": [{"label": "SQLite"}]}
        ]}))
        .expect("request");
        let form = Form::new(&ValidRequest::new(request).expect("valid")).expect("form");
        let result = form_result(&form, "Pick one".to_owned(), &RoundState::first(ID));
        let wire = serde_json::to_value(&result).expect("json");
        assert_eq!(wire["resultType"], "input_required");
        assert_eq!(wire["requestState"], format!("askdesk.1.{ID}.0"));
        let asked = &wire["inputRequests"][KEY];
        assert_eq!(asked["method"], "elicitation/create");
        assert_eq!(asked["params"]["mode"], "form");
        assert_eq!(asked["params"]["message"], "Pick one");
        let fields = asked["params"]["requestedSchema"]["properties"]
            .as_object()
            .expect("fields");
        assert_eq!(fields.keys().collect::<Vec<_>>(), ["db", "db_other"]);
    }

    #[test]
    fn replies_are_read_from_the_form_s_key_only() {
        assert_eq!(reply(None), Ok(None));
        let other = InputResponses::from([("other".to_owned(), json!({"action": "accept"}))]);
        assert_eq!(reply(Some(&other)), Ok(None));
        let declined = InputResponses::from([(KEY.to_owned(), json!({"action": "decline"}))]);
        let read = reply(Some(&declined)).expect("read").expect("a reply");
        assert_eq!(read.action, ElicitationAction::Decline);
        let junk = InputResponses::from([(KEY.to_owned(), json!({"action": "shrug"}))]);
        let refused = reply(Some(&junk)).expect_err("not a result");
        assert!(refused.starts_with("inputResponses.answer"), "{refused}");
    }
}
