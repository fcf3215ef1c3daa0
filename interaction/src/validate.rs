//! The one validator of requests and answers. Every part of askdesk calls
//! these functions; none restates a rule. The rules themselves are in
//! [`request`] (a request's questions) and [`answer`] (one answer item).

mod answer;
mod request;
mod text;

pub(crate) use answer::item_problems;
pub(crate) use answer::typed_problem;
pub(crate) use request::is_valid_id;
pub use text::with_visible_controls;
pub(crate) use text::{control_problem, too_long, trimmed, Texts};

use crate::{
    model::{AnswerItem, Answers, Question, Request},
    problem::{quoted, Problem, ProblemCode as Code, Problems},
};
use request::request_problems;
use text::request_control_problems;

/// Most questions in one request.
pub const MAX_QUESTIONS: usize = 50;
/// Longest question id, in characters.
pub const MAX_ID_CHARS: usize = 64;
/// Longest question text, in characters.
pub const MAX_QUESTION_CHARS: usize = 4_000;
/// Longest header, in characters.
pub const MAX_HEADER_CHARS: usize = 40;
/// Most options of one question.
pub const MAX_OPTIONS: usize = 32;
/// Longest option label, in characters.
pub const MAX_LABEL_CHARS: usize = 200;
/// The longest option description, in characters.
pub const MAX_DESCRIPTION_CHARS: usize = 2_000;
/// The longest option preview, in characters.
pub const MAX_PREVIEW_CHARS: usize = 20_000;
/// The longest context of a request (what the agent was doing), in
/// characters.
pub const MAX_CONTEXT_CHARS: usize = 4_000;
/// Longest custom text, in characters.
pub const MAX_CUSTOM_CHARS: usize = 10_000;

fn chars(s: &str) -> usize {
    s.chars().count()
}

/// Whether `s` has more than `max` characters; only text with more than
/// `max` bytes needs counting.
fn longer_than(s: &str, max: usize) -> bool {
    s.len() > max && chars(s) > max
}

fn is_blank(s: &str) -> bool {
    s.trim().is_empty()
}

/// A request that passed validation. Only [`ValidRequest::new`] makes one,
/// so code holding it may rely on unique ids and unique labels.
///
/// On the wire it is the request itself; decoding one validates it, so a
/// value that crossed a boundary (an [`Ask`](crate::Ask) from the server,
/// the page's props) is as valid as one made here. Decoding reads it as a
/// store kept it ([`ValidRequest::stored`]): what crosses a boundary as a
/// `ValidRequest` was accepted by a server already. In the browser bundles
/// (feature `from-server`), which decode questions only from their own
/// server, decoding keeps that server's proof without checking again.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(transparent)]
pub struct ValidRequest(Request);

impl<'de> serde::Deserialize<'de> for ValidRequest {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let request = Request::deserialize(deserializer)?;
        ValidRequest::decoded(request).map_err(serde::de::Error::custom)
    }
}

impl ValidRequest {
    /// A request decoded from the wire.
    #[cfg(not(feature = "from-server"))]
    fn decoded(request: Request) -> Result<Self, Problems> {
        Self::stored(request)
    }

    /// A request decoded from the wire, in a browser bundle: its server
    /// validated it.
    #[cfg(feature = "from-server")]
    #[allow(clippy::unnecessary_wraps)]
    fn decoded(request: Request) -> Result<Self, Problems> {
        Ok(Self(request))
    }

    /// Checks a request that comes in and reports every problem at once.
    pub fn new(request: Request) -> Result<Self, Problems> {
        Self::checked(request, Texts::Incoming)
    }

    /// Checks a request as a store kept it: every rule but the one on
    /// control characters, which askdesk did not always keep, so an ask
    /// stored before stays readable.
    pub fn stored(request: Request) -> Result<Self, Problems> {
        Self::checked(request, Texts::Stored)
    }

    fn checked(request: Request, texts: Texts) -> Result<Self, Problems> {
        let mut problems = request_problems(&request);
        if texts == Texts::Incoming {
            problems.extend(request_control_problems(&request));
        }
        if problems.is_empty() {
            Ok(Self(request))
        } else {
            Err(Problems(problems))
        }
    }

    /// The request.
    pub fn request(&self) -> &Request {
        &self.0
    }

    /// What the agent was doing when it asked, shown above the questions.
    pub fn context(&self) -> Option<&str> {
        self.0.context.as_deref()
    }

    /// The questions, in order.
    pub fn questions(&self) -> &[Question] {
        &self.0.questions
    }

    /// The question with this id.
    pub fn question(&self, id: &str) -> Option<&Question> {
        self.0.questions.iter().find(|q| q.id == id)
    }

    /// Gives the request back.
    pub fn into_inner(self) -> Request {
        self.0
    }

    /// Checks answers against this request and reports every problem at once.
    ///
    /// Accepted answers come back in canonical form: one item per question
    /// in request order, labels in option order, custom text trimmed. The
    /// answers are taken, not copied: canonical form is made by moving the
    /// items into place, so acceptance allocates nothing.
    pub fn validate_answers(&self, answers: Answers) -> Result<ValidAnswers, Problems> {
        self.answers_checked(answers, Texts::Incoming)
    }

    /// Checks answers as a store kept them, as [`ValidRequest::stored`]
    /// reads a request: every rule but the one on control characters.
    pub fn validate_stored_answers(&self, answers: Answers) -> Result<ValidAnswers, Problems> {
        self.answers_checked(answers, Texts::Stored)
    }

    fn answers_checked(&self, answers: Answers, texts: Texts) -> Result<ValidAnswers, Problems> {
        let questions = &self.0.questions;
        let mut problems = Vec::new();
        // The answers' index for each question. A valid request has at most
        // MAX_QUESTIONS questions (`new` and decoding both check).
        let mut answered = [None::<usize>; MAX_QUESTIONS];
        let answered = &mut answered[..questions.len()];
        for (i, item) in answers.answers.iter().enumerate() {
            let Some(q) = questions.iter().position(|q| q.id == item.id) else {
                problems.push(Problem::new(
                    format!("answers[{i}].id"),
                    Code::UnknownQuestion,
                    format!("there is no question with id {}", quoted(&item.id)),
                ));
                continue;
            };
            match answered[q] {
                Some(first) => problems.push(
                    Problem::new(
                        format!("answers[{i}].id"),
                        Code::DuplicateAnswer,
                        format!(
                            "question {} is already answered by answers[{first}]; \
                             answer each question once",
                            quoted(&item.id)
                        ),
                    )
                    .for_question(&item.id),
                ),
                None => answered[q] = Some(i),
            }
            problems.extend(item_problems(&questions[q], item, Some(i), texts));
        }
        for (q, slot) in answered.iter().enumerate() {
            if slot.is_none() {
                let id = &questions[q].id;
                problems.push(
                    Problem::new(
                        "answers",
                        Code::MissingAnswer,
                        format!(
                            "question {} has no answer; every question needs one",
                            quoted(id)
                        ),
                    )
                    .for_question(id),
                );
            }
        }
        if !problems.is_empty() {
            return Err(Problems(problems));
        }
        // Without problems every question has exactly one item, so sorting
        // the items by their question's index puts them in request order.
        let mut items = answers.answers;
        items.sort_unstable_by_key(|item| questions.iter().position(|q| q.id == item.id));
        for (item, question) in items.iter_mut().zip(questions) {
            canonicalize(question, item);
        }
        Ok(ValidAnswers(items))
    }
}

/// Answers that passed validation against their request, in canonical form.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ValidAnswers(Vec<AnswerItem>);

impl ValidAnswers {
    /// One item per question, in request order.
    pub fn items(&self) -> &[AnswerItem] {
        &self.0
    }

    /// The answers as they travel on the wire.
    pub fn into_answers(self) -> Answers {
        Answers { answers: self.0 }
    }
}

/// Puts a valid item in canonical form in place: its labels, each an option
/// of `question` and none twice, in option order; its custom text trimmed.
fn canonicalize(question: &Question, item: &mut AnswerItem) {
    item.selected
        .sort_unstable_by_key(|label| question.options.iter().position(|o| o.label == *label));
    if let Some(custom) = &mut item.custom {
        custom.truncate(custom.trim_end().len());
        custom.drain(..custom.len() - custom.trim_start().len());
    }
}

impl Question {
    /// Whether `text` stands as this question's typed answer: of its
    /// format and within its bounds, as the validator reads answers (any
    /// text, for a question without a format). Here, beside the rule, so
    /// the wire types know nothing of the validator.
    pub fn accepts_typed(&self, text: &str) -> bool {
        typed_problem(self, text.trim()).is_none()
    }
}
