//! The askdesk server: renders and hydrates the pages, serves the site's
//! static files and answers server-function calls.
//!
//! `main.rs` only parses the command line and serves [`app`]; tests drive the
//! same router in-process.

pub mod config;

use axum::{extract::FromRef, Router};
use leptos::prelude::LeptosOptions;
use leptos_axum::{generate_route_list, LeptosRoutes};

/// Everything a request handler may need.
#[derive(Clone)]
pub struct AppState {
    /// Where the compiled site lives and what it is called.
    pub leptos_options: LeptosOptions,
}

impl FromRef<AppState> for LeptosOptions {
    fn from_ref(state: &AppState) -> Self {
        state.leptos_options.clone()
    }
}

/// The whole HTTP application: pages, server functions, static files.
pub fn app(state: AppState) -> Router {
    let routes = generate_route_list(app::App);
    Router::new()
        .leptos_routes(&state, routes, {
            let options = state.leptos_options.clone();
            move || app::shell(options.clone())
        })
        .fallback(leptos_axum::file_and_error_handler::<AppState, _>(
            app::shell,
        ))
        .with_state(state)
}
