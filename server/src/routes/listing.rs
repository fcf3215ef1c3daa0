//! `GET /api/v1/asks`: the list of asks, its filters and pages, the
//! long-poll for a change, and the `format=jsonl` export.

use super::openapi::described::Waited;
use crate::{
    http::recheck::Recheck,
    http::reply::{ApiError, QueryParams},
    http::waiting::{wait_or_stop, wait_seconds},
    AppState,
};
use axum::{
    body::Bytes,
    extract::{Extension, State},
    response::{IntoResponse, Response},
};
use desk::{Caller, Desk};
use interaction::{AskList, AskStatus};
use serde::Deserialize;

/// What `GET /api/v1/asks` reads of its query string. Each value is read
/// as text and checked here, so a wrong one is refused naming it; the
/// document says what each takes.
#[derive(Deserialize, schemars::JsonSchema)]
pub(crate) struct ListQuery {
    #[schemars(with = "Option<StatusFilter>")]
    status: Option<String>,
    #[schemars(with = "Option<u64>", range(max = u64::MAX))]
    after: Option<String>,
    #[schemars(with = "Option<u32>")]
    wait: Option<String>,
    agent: Option<String>,
    q: Option<String>,
    #[schemars(with = "Option<u32>", range(min = 1, max = PAGE_LIMIT), extend("default" = PAGE_LIMIT))]
    limit: Option<String>,
    #[schemars(pattern(r"^-?[0-9]{1,18}\.-?[0-9]{1,18}$"))]
    cursor: Option<String>,
    #[schemars(with = "Option<ListFormat>")]
    format: Option<String>,
}

/// The statuses `status=` takes: each of an ask's, or `all` (or nothing).
struct StatusFilter;

impl schemars::JsonSchema for StatusFilter {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> std::borrow::Cow<'static, str> {
        "StatusFilter".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let mut names: Vec<&str> = AskStatus::ALL.map(AskStatus::as_str).to_vec();
        names.extend(["all", ""]);
        schemars::json_schema!({"type": "string", "enum": names, "default": "all"})
    }
}

/// What `format=` takes: a page of JSON, or every match a line.
#[derive(schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
#[schemars(inline, extend("default" = "json"))]
enum ListFormat {
    Json,
    Jsonl,
}

pub use interaction::PAGE_LIMIT;

impl ListQuery {
    /// The filter the query names, refusing a value it cannot use.
    fn filter(&self) -> Result<desk::ListFilter, ApiError> {
        let status = match self.status.as_deref() {
            None | Some("" | "all") => None,
            Some(s) => Some(AskStatus::parse(s).ok_or_else(|| {
                ApiError::Query(format!(
                    "status={s:?} is not a status; use one of pending, answered, declined, \
                     cancelled, expired or all"
                ))
            })?),
        };
        let after = self
            .cursor
            .as_deref()
            .map(|c| {
                desk::Cursor::parse(c).ok_or_else(|| {
                    ApiError::Query(format!(
                        "cursor={c:?} is not a cursor; pass back the `next` of the page before"
                    ))
                })
            })
            .transpose()?;
        let text = |v: &Option<String>| v.as_deref().filter(|v| !v.is_empty()).map(str::to_owned);
        Ok(desk::ListFilter {
            status,
            agent: text(&self.agent),
            text: text(&self.q),
            after,
        })
    }

    fn format(&self) -> Result<ListFormat, ApiError> {
        match self.format.as_deref() {
            None | Some("json") => Ok(ListFormat::Json),
            Some("jsonl") => Ok(ListFormat::Jsonl),
            Some(other) => Err(ApiError::Query(format!(
                "format={other:?} is not a format; use json (a page) or jsonl (every match, \
                 one per line)"
            ))),
        }
    }

    fn limit(&self) -> Result<u32, ApiError> {
        match self.limit.as_deref() {
            None => Ok(PAGE_LIMIT),
            Some(v) => v
                .parse::<u32>()
                .ok()
                .filter(|n| (1..=PAGE_LIMIT).contains(n))
                .ok_or_else(|| {
                    ApiError::Query(format!(
                        "limit={v:?} is not a page size; use 1 to {PAGE_LIMIT}"
                    ))
                }),
        }
    }
}

pub(crate) async fn list(
    State(state): State<AppState>,
    QueryParams(query): QueryParams<ListQuery>,
    Extension(caller): Extension<Caller>,
    Extension(recheck): Extension<Recheck>,
) -> Result<Waited<Listing>, ApiError> {
    // Every parameter is checked, whichever format uses it.
    let filter = query.filter()?;
    let limit = query.limit()?;
    let after = query
        .after
        .as_deref()
        .map(|v| {
            v.parse::<u64>()
                .map_err(|_| ApiError::Query(format!("after={v:?} is not a list version")))
        })
        .transpose()?;
    let wait = wait_seconds(query.wait.as_deref())?;
    if let ListFormat::Jsonl = query.format()? {
        return Ok(Waited::Reply(Listing::Export(export(
            state.desk.clone(),
            filter,
            caller,
        ))));
    }
    // The wait re-reads the version once it listens, so a change between
    // this read and then is not missed.
    if let (Some(after), Some(wait)) = (after, wait) {
        if state.desk.version() <= after {
            let change = async {
                let _ = state.desk.wait_for_change(after, wait).await;
            };
            wait_or_stop(change, &state.shutdown).await;
            if let Err(refused) = recheck.still(&caller).await {
                return Ok(Waited::Refused(refused));
            }
        }
    }
    // Read the version first: a change after it makes the next poll return.
    let version = state.desk.version();
    // Boxed: a waiting handler keeps only what it waits on.
    let page = Box::pin(state.desk.search(&filter, limit, &caller)).await?;
    Ok(Waited::Reply(Listing::Page(AskList {
        asks: page.asks,
        version,
        next: page.next.map(desk::Cursor::encode),
    })))
}

/// What `GET /api/v1/asks` answers: a page, or the export's lines.
pub(crate) enum Listing {
    Page(AskList),
    Export(Response),
}

impl IntoResponse for Listing {
    fn into_response(self) -> Response {
        match self {
            Self::Page(page) => axum::Json(page).into_response(),
            Self::Export(lines) => lines,
        }
    }
}

/// `format=jsonl`: every ask the filter lets through that `caller` sees,
/// newest first, one JSON summary per line, read a page at a time as the client takes them.
fn export(desk: Desk, filter: desk::ListFilter, caller: Caller) -> Response {
    use futures_util::{stream, StreamExt};
    const BATCH: u32 = 500;
    let pages = stream::unfold(Some(filter), move |filter| {
        let desk = desk.clone();
        let caller = caller.clone();
        async move {
            let filter = filter?;
            match desk.search(&filter, BATCH, &caller).await {
                // Nothing (more) matches: the end. An empty chunk would end
                // a chunked body early.
                Ok(page) if page.asks.is_empty() => None,
                Ok(page) => {
                    let mut lines = Vec::new();
                    for ask in &page.asks {
                        if serde_json::to_writer(&mut lines, ask).is_ok() {
                            lines.push(b'\n');
                        }
                    }
                    let next = page.next.map(|after| desk::ListFilter {
                        after: Some(after),
                        ..filter
                    });
                    Some((Ok::<_, std::io::Error>(Bytes::from(lines)), next))
                }
                Err(e) => {
                    // The lines sent stand; the stream ends short, which a
                    // client sees as a broken transfer, not a complete one.
                    tracing::warn!("exporting asks failed: {e}");
                    Some((Err(std::io::Error::other(e.to_string())), None))
                }
            }
        }
    })
    // The gzip layer may poll once more after the end.
    .fuse();
    (
        [(axum::http::header::CONTENT_TYPE, "application/x-ndjson")],
        axum::body::Body::from_stream(pages),
    )
        .into_response()
}

/// What the OpenAPI document reads off the listing's reply.
mod operation {
    use super::Listing;
    use crate::routes::openapi::described::{json, schema_object};
    use aide::{
        generate::GenContext,
        openapi::{MediaType, Operation, Response, StatusCode},
        operation::OperationOutput,
    };

    use interaction::AskList;
    use schemars::json_schema;

    impl OperationOutput for Listing {
        type Inner = AskList;

        /// A page as JSON, or with `format=jsonl` every match a line.
        fn inferred_responses(
            ctx: &mut GenContext,
            operation: &mut Operation,
        ) -> Vec<(Option<StatusCode>, Response)> {
            let mut reply = json::<AskList>(ctx, operation);
            let lines = MediaType {
                schema: Some(schema_object(json_schema!({
                    "type": "string",
                    "description": "One `AskSummary` as JSON per line.",
                }))),
                ..MediaType::default()
            };
            reply
                .content
                .insert("application/x-ndjson".to_owned(), lines);
            vec![(Some(StatusCode::Code(200)), reply)]
        }
    }
}
