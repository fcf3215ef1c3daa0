//! The answering form as HTML submits it: field names, and the way back
//! from posted fields to drafts.
//!
//! Without JavaScript the browser posts the form itself. The server turns the
//! fields into the same [`BatchDraft`] the hydrated page keeps, so a posted
//! form and a script-driven submit produce the same answer item (on
//! single-select, Other text overrides the chosen option in both).

use interaction::{Answers, BatchDraft, Problem, QuestionDraft, ValidRequest};
use serde::{Deserialize, Serialize};

/// The name of the checkboxes or radios of question `id`.
pub fn selected_field(id: &str) -> String {
    format!("answer.{id}")
}

/// The name of the Other box (or the textarea) of question `id`.
pub fn other_field(id: &str) -> String {
    format!("other.{id}")
}

/// The names of every field a form over `request` posts, but its buttons.
pub fn field_names(request: &ValidRequest) -> Vec<String> {
    request
        .questions()
        .iter()
        .flat_map(|q| [selected_field(&q.id), other_field(&q.id)])
        .chain([REASON_FIELD.to_owned()])
        .collect()
}

/// The name of the decline reason box.
pub const REASON_FIELD: &str = "reason";

/// The name of the submit buttons; the value says which one was pressed.
pub const INTENT_FIELD: &str = "intent";

/// What one question's fields held when the form was posted.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PostedQuestion {
    /// The question's id.
    pub id: String,
    /// The checked labels, as posted (unknown ones included).
    pub selected: Vec<String>,
    /// The Other text, untrimmed.
    pub custom: String,
}

impl PostedQuestion {
    /// Makes `draft` hold exactly these fields: these labels checked and no
    /// others, this Other text. The draft's own rules still decide what
    /// the answer is (on single-select, Other text overrides a choice).
    pub fn put(&self, draft: &mut QuestionDraft) {
        for index in 0..draft.question().options.len() {
            draft.set_checked(index, false);
        }
        draft.set_custom(self.custom.clone());
        for label in &self.selected {
            if let Some(index) = draft.index_of(label) {
                draft.set_checked(index, true);
            }
        }
    }
}

/// A posted form the server refused: what was typed and why it was refused,
/// so the page can show both and nothing typed is lost.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Posted {
    /// The ask the form belongs to.
    pub ask_id: String,
    /// One entry per question of the request.
    pub questions: Vec<PostedQuestion>,
    /// The decline reason box.
    pub reason: String,
    /// Why the server refused it.
    pub problems: Vec<Problem>,
}

/// Whether a posted form's `fields` decline the ask: its Decline button
/// was the one pressed.
pub fn declines(fields: &[(String, String)]) -> bool {
    fields
        .iter()
        .any(|(name, value)| name == INTENT_FIELD && value == "decline")
}

/// A posted text as typed: HTML's CRLF line breaks as newlines. (The server
/// reads a posted form's fields so; the browser's own `FormData` has the
/// newlines as typed.)
pub fn posted_text(value: &str) -> String {
    value.replace("\r\n", "\n")
}

impl Posted {
    /// Reads the posted `fields` of a form for `request` (their line
    /// breaks read as newlines already, see [`posted_text`]).
    pub fn from_fields(ask_id: &str, request: &ValidRequest, fields: &[(String, String)]) -> Self {
        let value_of = |name: String| {
            fields
                .iter()
                .filter(move |(key, _)| *key == name)
                .map(|(_, value)| value.clone())
        };
        Self {
            ask_id: ask_id.to_owned(),
            questions: request
                .questions()
                .iter()
                .map(|q| PostedQuestion {
                    id: q.id.clone(),
                    selected: value_of(selected_field(&q.id)).collect(),
                    custom: value_of(other_field(&q.id)).next().unwrap_or_default(),
                })
                .collect(),
            reason: value_of(REASON_FIELD.to_owned()).next().unwrap_or_default(),
            problems: Vec::new(),
        }
    }

    /// The fields a form over `batch` would post now: what the page keeps
    /// as its draft, to put back after a reload with [`Posted::apply`].
    pub fn of_draft(ask_id: &str, batch: &BatchDraft) -> Self {
        Self {
            ask_id: ask_id.to_owned(),
            questions: batch
                .drafts()
                .iter()
                .map(|d| PostedQuestion {
                    id: d.question().id.clone(),
                    selected: d.checked_labels().map(str::to_owned).collect(),
                    custom: d.custom().to_owned(),
                })
                .collect(),
            reason: String::new(),
            problems: Vec::new(),
        }
    }

    /// The fields a browser would post for this, in the form's order (no
    /// empty text): [`Posted::from_fields`] reads them back as they were.
    pub fn fields(&self) -> Vec<(String, String)> {
        let mut fields = Vec::new();
        for posted in &self.questions {
            let name = selected_field(&posted.id);
            fields.extend(
                posted
                    .selected
                    .iter()
                    .map(|label| (name.clone(), label.clone())),
            );
            if !posted.custom.is_empty() {
                fields.push((other_field(&posted.id), posted.custom.clone()));
            }
        }
        if !self.reason.is_empty() {
            fields.push((REASON_FIELD.to_owned(), self.reason.clone()));
        }
        fields
    }

    /// Puts what was posted into `batch`, as if typed and clicked there.
    pub fn apply(&self, batch: &mut BatchDraft) {
        for posted in &self.questions {
            if let Some(draft) = batch.draft_by_id_mut(&posted.id) {
                posted.put(draft);
            }
        }
    }

    /// What was posted for the question `id`.
    pub fn question(&self, id: &str) -> Option<&PostedQuestion> {
        self.questions.iter().find(|q| q.id == id)
    }

    /// The answers the posted form stands for. Labels that are no option of
    /// their question are kept, so the validator names them.
    pub fn answers(&self, request: &ValidRequest) -> Answers {
        let mut batch = BatchDraft::new(request);
        self.apply(&mut batch);
        let mut answers = batch.answers();
        for (item, posted) in answers.answers.iter_mut().zip(&self.questions) {
            let question = request.question(&posted.id);
            item.selected.extend(
                posted
                    .selected
                    .iter()
                    .filter(|label| {
                        question.is_none_or(|q| !q.options.iter().any(|o| &o.label == *label))
                    })
                    .cloned(),
            );
        }
        answers
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A single-select, a multi-select and an optionless question; other
    /// modules' tests use it too.
    pub(crate) fn request() -> ValidRequest {
        serde_json::from_str(
            r#"{"questions": [
              {"id": "db", "question": "Which?", "options": [{"label": "SQLite"}, {"label": "PostgreSQL"}]},
              {"id": "features", "question": "Which?", "multiSelect": true,
               "options": [{"label": "Auth"}, {"label": "Logging"}]},
              {"id": "notes", "question": "Else?"}
            ]}"#,
        )
        .expect("a valid request")
    }

    fn fields(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect()
    }

    #[test]
    fn a_draft_goes_out_as_fields_and_comes_back_the_same() {
        let request = request();
        let posted = Posted::from_fields(
            "x",
            &request,
            &fields(&[
                ("answer.features", "Logging"),
                ("other.features", "and tracing"),
                ("answer.features", "Auth"),
                ("other.notes", "line one\nline two"),
                ("reason", "busy"),
            ]),
        );
        let back = Posted::from_fields("x", &request, &posted.fields());
        assert_eq!(back, posted);
        assert_eq!(posted.questions[1].selected, ["Logging", "Auth"]);
        assert!(Posted::from_fields("x", &request, &[]).fields().is_empty());
    }

    #[test]
    fn posted_fields_become_the_same_items_the_page_would_submit() {
        let request = request();
        let posted = Posted::from_fields(
            "x",
            &request,
            &fields(&[
                ("answer.db", "SQLite"),
                ("other.db", "DuckDB"),
                ("answer.features", "Logging"),
                ("answer.features", "Auth"),
                ("other.features", " Rate limiting "),
                ("other.notes", "none"),
                ("reason", "later"),
                ("intent", "answer"),
            ]),
        );
        assert_eq!(posted.reason, "later");
        let answers = serde_json::to_value(posted.answers(&request)).expect("json");
        assert_eq!(
            answers,
            serde_json::json!({"answers": [
                {"id": "db", "selected": [], "custom": "DuckDB"},
                {"id": "features", "selected": ["Auth", "Logging"], "custom": "Rate limiting"},
                {"id": "notes", "selected": [], "custom": "none"}
            ]})
        );
        assert!(request.validate_answers(posted.answers(&request)).is_ok());
    }

    #[test]
    fn unknown_posted_labels_reach_the_validator() {
        let request = request();
        let posted = Posted::from_fields(
            "x",
            &request,
            &fields(&[("answer.db", "Oracle"), ("answer.features", "Auth")]),
        );
        let problems = request
            .validate_answers(posted.answers(&request))
            .expect_err("refused");
        assert!(problems.iter().any(|p| p.path == "answers[0].selected[0]"
            && p.code == interaction::ProblemCode::UnknownLabel));
    }
}
