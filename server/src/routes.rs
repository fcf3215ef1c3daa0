//! What each path does: the asks API, the event streams, the pages, signing
//! in (a phone too), OAuth for connectors, Web Push subscriptions and
//! Slack's buttons, assembled
//! into one router behind the guard. A new route goes in the file of its
//! kind here.

pub mod actions;
pub mod api;
pub mod events;
pub mod health;
pub mod listing;
pub mod mcp;
pub mod messages;
pub mod oauth;
pub mod oidc;
pub mod openapi;
pub mod pages;
pub mod phone;
pub mod push;
pub mod rpc;
pub mod sign_in;
pub mod slack;

use crate::{
    http::{gate, guard},
    AppState,
};
use axum::{
    routing::{get, post},
    Router,
};
use leptos::prelude::provide_context;
use leptos_axum::{generate_route_list, LeptosRoutes};
use std::sync::Arc;

/// The app's pages, listed once per process. Listing renders the app in a
/// special mode; done while another router of the same process renders a
/// page (tests build one router each, in parallel), it now and then left
/// that page never finishing. The list never changes, so one is enough.
fn route_list() -> Vec<leptos_axum::AxumRouteListing> {
    static ROUTES: std::sync::OnceLock<Vec<leptos_axum::AxumRouteListing>> =
        std::sync::OnceLock::new();
    ROUTES.get_or_init(|| generate_route_list(app::App)).clone()
}

/// The ask page's path, as axum writes it.
const ASK_PAGE: &str = "/asks/{id}";

/// The whole HTTP application: pages, API, server functions, static files,
/// behind the security checks.
pub fn app(state: AppState) -> crate::http::App {
    // The ask page has a handler of its own, which reads the ask before
    // rendering the page (`pages::get_page`); so have the phone's pages,
    // which make and read sign-in links first.
    let routes: Vec<_> = route_list()
        .into_iter()
        .filter(|route| {
            ![
                ASK_PAGE,
                phone::PHONE_PAGE,
                phone::LINK_PAGE,
                ::oauth::AUTHORIZE_PATH,
            ]
            .contains(&route.path())
        })
        .collect();
    let desk = state.desk.clone();
    let page = state.page.clone();
    let context = move || {
        provide_context(desk.clone());
        provide_context(page.clone());
    };
    // The pages, their server functions and what a browser posts: none of
    // them waits, and only these may be server functions whose bodies
    // `rpc::checked` reads.
    let pages = Router::new()
        .route(ASK_PAGE, get(pages::get_page).post(pages::post_form))
        .route("/asks/{id}/messages", post(pages::post_message))
        .route("/signin", post(sign_in::sign_in))
        .route("/signout", post(sign_in::sign_out))
        .route(app::signin::OIDC_START_PATH, get(oidc::start))
        .route(crate::oidc::CALLBACK_PATH, get(oidc::callback))
        .route(phone::PHONE_PAGE, get(phone::page))
        .route(
            app::phone::SIGN_OUT_DEVICE_PATH,
            post(phone::sign_out_device),
        )
        .route(app::consent::DISCONNECT_PATH, post(phone::disconnect))
        .route(
            phone::LINK_PAGE,
            get(phone::show_link).post(phone::use_link),
        )
        .route("/lang/{code}", get(pages::switch_language))
        .leptos_routes_with_context(&state, routes, context, {
            let options = state.leptos_options.clone();
            move || app::shell(options.clone())
        })
        .fallback(pages::static_or_not_found)
        .layer(axum::middleware::from_fn(rpc::checked));
    let all = Router::new()
        .merge(health::routes())
        .merge(api::routes())
        .merge(events::routes())
        .merge(oauth::routes())
        .nest_service(
            "/mcp",
            tower::ServiceBuilder::new()
                .layer(axum::middleware::from_fn_with_state(
                    state.desk.clone(),
                    mcp::holders::held,
                ))
                .service(mcp::http_service(&state)),
        )
        .route("/integrations/slack/actions", post(slack::actions))
        .route("/metrics", get(crate::metrics::scrape))
        .merge(pages)
        .with_state(state.clone());
    // The guard and compression wrap the routes once, as one service,
    // rather than each route (`Router::layer`): a request that waits (a
    // long-poll, an event stream) holds one future for them, not a box for
    // each.
    let guarded = tower::ServiceBuilder::new()
        .layer(guard::Guard(Arc::new(gate::Gate {
            security: state.security.clone(),
            desk: state.desk.clone(),
            oauth: state.oauth.clone(),
            call_limit: state.connector_call_limit,
            // Probes come from load balancers, by any Host, without a
            // token.
            open: &[health::HEALTHZ, health::READYZ],
        })))
        // Pages and JSON, gzip when the client accepts it, for phones'
        // links. Not the site's files, which carry their build-time
        // encoding already, nor event streams.
        .layer(tower_http::compression::CompressionLayer::new())
        .service(all);
    crate::http::trace::traced(guarded)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ask_page_handler_takes_the_path_the_app_routes_the_ask_page_at() {
        let paths: Vec<_> = route_list().iter().map(|r| r.path().to_owned()).collect();
        for page in [
            ASK_PAGE,
            phone::PHONE_PAGE,
            phone::LINK_PAGE,
            ::oauth::AUTHORIZE_PATH,
        ] {
            assert!(paths.iter().any(|p| p == page), "{page}: {paths:?}");
        }
        assert!(phone::LINK_PAGE.starts_with(app::phone::LINK_PATH));
    }
}
