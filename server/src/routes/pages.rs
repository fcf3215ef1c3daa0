//! The ask page's routes. `GET /asks/{id}` reads the ask, then renders the
//! page with it. Without JavaScript, `POST /asks/{id}` takes the form as the
//! browser posts it, finishes the ask through the [`Desk`] and redirects to
//! the page (post/redirect/get), or renders the page again with what was
//! typed and the problems next to their questions.

use crate::{
    http::{guard::SERVICE_WORKER_CSP, reply::redirect},
    AppState,
};
use app::{
    ask::AskPageLoad,
    error::ServerError,
    form::{Posted, REASON_FIELD},
    rpc::{read_ask_page, ssr::page_error},
};
use axum::{
    body::Body,
    extract::{Extension, Path, RawForm, State},
    http::{HeaderValue, Request, StatusCode},
    response::{IntoResponse, Response},
};
use desk::{Actor, Caller, DeskError};
use interaction::{Decline, NewMessage, Via};
use leptos::prelude::provide_context;

/// `GET /asks/{id}`.
pub async fn get_page(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Extension(caller): Extension<Caller>,
    request_parts: axum::http::request::Parts,
) -> Response {
    let data = read_ask_page(&state.desk, &caller, &id).await;
    // Let the request the read woke go first: releasing the database
    // connection woke the next one waiting for it, which would otherwise
    // wait for this whole render with the database idle (bench/ssr.sh).
    tokio::task::yield_now().await;
    let load = AskPageLoad::new(data.map_err(page_error));
    render(&state, request_parts, Some(load), StatusCode::OK).await
}

/// `POST /asks/{id}`.
pub async fn post_form(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Extension(caller): Extension<Caller>,
    request_parts: axum::http::request::Parts,
    RawForm(body): RawForm,
) -> Response {
    let by = Actor::new(caller.clone(), Via::Form);
    // A browser posts a text box's line breaks as CRLF (as HTML's form
    // submission says); they are read back as the newlines typed.
    let fields: Vec<(String, String)> =
        serde_urlencoded::from_bytes::<Vec<(String, String)>>(&body)
            .unwrap_or_default()
            .into_iter()
            .map(|(key, value): (String, String)| (key, app::form::posted_text(&value)))
            .collect();
    let field = |name: &str| {
        fields
            .iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.as_str())
    };
    // The form's fields are read by the stored request's questions, inside
    // the desk's one read of the ask.
    let mut posted = None;
    let result = if app::form::declines(&fields) {
        let reason = field(REASON_FIELD).map(str::to_owned);
        state.desk.decline(&id, Decline { reason }, &by).await
    } else {
        state
            .desk
            .answer_with(&id, &by, |request| {
                let form = Posted::from_fields(&id, request, &fields);
                let answers = form.answers(request);
                posted = Some(form);
                answers
            })
            .await
    };
    match result {
        // Finished now or before: the page shows how it ended.
        Ok(_) | Err(DeskError::Finished(_) | DeskError::Gone(_)) => {
            redirect(&format!("/asks/{id}"))
        }
        Err(DeskError::Invalid(problems)) => {
            // A refused decline has not read the form's fields yet.
            let data = read_ask_page(&state.desk, &caller, &id).await;
            let data = data.map(|mut data| {
                let mut posted =
                    posted.unwrap_or_else(|| Posted::from_fields(&id, &data.ask.request, &fields));
                posted.problems = problems.0;
                data.posted = Some(posted);
                data
            });
            let load = AskPageLoad::new(data.map_err(page_error));
            render(
                &state,
                request_parts,
                Some(load),
                StatusCode::UNPROCESSABLE_ENTITY,
            )
            .await
        }
        Err(DeskError::NotFound) => {
            let load = AskPageLoad::new(Err(ServerError::NotFound));
            render(&state, request_parts, Some(load), StatusCode::NOT_FOUND).await
        }
        // Someone holding only the link, where answering needs signing in.
        Err(DeskError::Forbidden(_)) if caller == Caller::Link => {
            redirect(&format!("/signin?next=/asks/{id}"))
        }
        // Signed in, but the ask is for others: its page says so.
        Err(DeskError::Forbidden(why)) => {
            tracing::info!("a form post refused: {why}");
            let data = read_ask_page(&state.desk, &caller, &id).await;
            let load = AskPageLoad::new(data.map_err(page_error));
            render(&state, request_parts, Some(load), StatusCode::FORBIDDEN).await
        }
        Err(e) => {
            tracing::error!("{e}");
            StatusCode::INTERNAL_SERVER_ERROR.into_response()
        }
    }
}

/// `POST /asks/{id}/messages`: the page's box that writes into the
/// agent's session, as the browser posts it; then the page again, with
/// the message among those sent (post/redirect/get), or with why not.
pub async fn post_message(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Extension(caller): Extension<Caller>,
    mut request_parts: axum::http::request::Parts,
    RawForm(body): RawForm,
) -> Response {
    let text = serde_urlencoded::from_bytes::<Vec<(String, String)>>(&body)
        .unwrap_or_default()
        .into_iter()
        .find(|(key, _)| key == "text")
        .map(|(_, value)| app::form::posted_text(&value))
        .unwrap_or_default();
    let by = Actor::new(caller.clone(), Via::Form);
    let refused = match state.desk.message(&id, NewMessage { text }, &by).await {
        Ok(_) => return redirect(&format!("/asks/{id}")),
        Err(DeskError::NotFound) => {
            let load = AskPageLoad::new(Err(ServerError::NotFound));
            return render(&state, request_parts, Some(load), StatusCode::NOT_FOUND).await;
        }
        Err(DeskError::Forbidden(_)) if caller == Caller::Link => {
            return redirect(&format!("/signin?next=/asks/{id}"));
        }
        Err(e @ DeskError::Invalid(_)) => (StatusCode::UNPROCESSABLE_ENTITY, e),
        Err(e @ DeskError::Forbidden(_)) => (StatusCode::FORBIDDEN, e),
        Err(e @ DeskError::Conflict(_)) => (StatusCode::CONFLICT, e),
        Err(e @ DeskError::TooMany(_)) => (StatusCode::TOO_MANY_REQUESTS, e),
        Err(e) => {
            tracing::error!("{e}");
            return StatusCode::INTERNAL_SERVER_ERROR.into_response();
        }
    };
    let (status, why) = refused;
    let why = match why {
        DeskError::Invalid(problems) => problems
            .0
            .iter()
            .map(|p| p.message.clone())
            .collect::<Vec<_>>()
            .join("; "),
        other => other.to_string(),
    };
    // The page is rendered at its own path.
    if let Ok(uri) = format!("/asks/{id}").parse() {
        request_parts.uri = uri;
    }
    let data = read_ask_page(&state.desk, &caller, &id)
        .await
        .map(|mut data| {
            data.message_refused = Some(why);
            data
        });
    let load = AskPageLoad::new(data.map_err(page_error));
    render(&state, request_parts, Some(load), status).await
}

/// Every other path: a file of the site, or the page that says there is
/// nothing here (404).
pub async fn static_or_not_found(
    State(state): State<AppState>,
    request: Request<Body>,
) -> Response {
    let path = request.uri().path();
    if let Some(mut response) = state.assets.response(path, request.headers()) {
        if path == "/sw.js" {
            // The service worker's own policy: it fetches only this server
            // (a notification's button answers through the API).
            response.headers_mut().insert(
                axum::http::header::CONTENT_SECURITY_POLICY,
                HeaderValue::from_static(SERVICE_WORKER_CSP),
            );
        }
        return response;
    }
    let (parts, _) = request.into_parts();
    render(&state, parts, None, StatusCode::NOT_FOUND).await
}

/// Renders the page at the request's path as a GET of it would, with
/// `status` where the page is not an error of its own. An ask page renders
/// with its data, `load`.
async fn render(
    state: &AppState,
    parts: axum::http::request::Parts,
    load: Option<AskPageLoad>,
    status: StatusCode,
) -> Response {
    render_with(state, parts, status, load).await
}

/// Renders the page at the request's path as a GET of it would, with
/// `status` where the page is not an error of its own, and with `load` in
/// its context: what the server read for it before rendering.
pub(super) async fn render_with<T: Clone + Send + Sync + 'static>(
    state: &AppState,
    mut parts: axum::http::request::Parts,
    status: StatusCode,
    load: Option<T>,
) -> Response {
    parts.method = axum::http::Method::GET;
    let request = Request::from_parts(parts, Body::empty());
    let desk = state.desk.clone();
    let page = state.page.clone();
    let options = state.leptos_options.clone();
    let handler = leptos_axum::render_app_async_with_context(
        move || {
            provide_context(desk.clone());
            provide_context(page.clone());
            if let Some(load) = load.clone() {
                provide_context(load);
            }
        },
        move || app::shell(options.clone()),
    );
    let mut response = handler(request).await;
    if response.status().is_success() {
        *response.status_mut() = status;
    }
    response
}

#[derive(serde::Deserialize)]
pub struct LangQuery {
    back: Option<String>,
}

/// `GET /lang/{code}`: the language switch. Remembers the choice in a
/// cookie and sends the browser back to the page it came from (a path on
/// this server only).
pub async fn switch_language(
    Path(code): Path<String>,
    axum::extract::Query(query): axum::extract::Query<LangQuery>,
) -> Response {
    let back = app::signin::local_path(query.back.as_deref());
    let mut response = redirect(back);
    if let Some(lang) = app::i18n::Lang::parse(&code) {
        let cookie = format!(
            "{}={}; Path=/; Max-Age=31536000; SameSite=Lax",
            app::i18n::LANG_COOKIE,
            lang.code()
        );
        if let Ok(value) = HeaderValue::from_str(&cookie) {
            response
                .headers_mut()
                .insert(axum::http::header::SET_COOKIE, value);
        }
    }
    response
}
