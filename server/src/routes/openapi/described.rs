//! What the document reads off the API's own types: each extractor says
//! which parameters or body it takes and which refusals it gives, each
//! reply type which statuses and schema it answers with. The handlers'
//! signatures are the operations; nothing here names a path.

use crate::http::{
    identity::ApiVia,
    reply::{ApiError, JsonBody, OptionalJsonBody, QueryParams},
};
use aide::{
    generate::GenContext,
    openapi::{
        HeaderStyle, Operation, Parameter, ParameterData, ParameterSchemaOrContent, ReferenceOr,
        Response, SchemaObject, StatusCode,
    },
    operation::{add_parameters, OperationInput, OperationOutput},
};
use axum::{extract::Query, Json};
use indexmap::IndexMap;
use schemars::{JsonSchema, Schema};

/// A reply the document keeps once, in `components.responses`.
fn shared(name: &str) -> ReferenceOr<Response> {
    ReferenceOr::Reference {
        reference: format!("#/components/responses/{name}"),
        summary: None,
        description: None,
    }
}

/// `operation` may answer `code` with the shared reply `name`.
pub(crate) fn refuses(operation: &mut Operation, code: u16, name: &str) {
    operation
        .responses
        .get_or_insert_with(Default::default)
        .responses
        .entry(StatusCode::Code(code))
        .or_insert_with(|| shared(name));
}

pub(crate) fn schema_object(json_schema: Schema) -> SchemaObject {
    SchemaObject {
        json_schema,
        example: None,
        external_docs: None,
    }
}

/// `operation` reads the optional header `name`, written as `T` is.
pub(crate) fn header<T: JsonSchema>(ctx: &mut GenContext, operation: &mut Operation, name: &str) {
    let schema = ctx.schema.subschema_for::<T>();
    let parameter = Parameter::Header {
        parameter_data: ParameterData {
            name: name.to_owned(),
            description: None,
            required: false,
            deprecated: None,
            format: ParameterSchemaOrContent::Schema(schema_object(schema)),
            example: None,
            examples: IndexMap::new(),
            explode: None,
            extensions: IndexMap::new(),
        },
        style: HeaderStyle::Simple,
    };
    add_parameters(ctx, operation, [parameter]);
}

/// A JSON reply of type `T`, as axum's `Json` describes it.
pub(crate) fn json<T: JsonSchema>(ctx: &mut GenContext, operation: &mut Operation) -> Response {
    Json::<T>::operation_response(ctx, operation).unwrap_or_default()
}

impl<T: JsonSchema> OperationInput for JsonBody<T> {
    fn operation_input(ctx: &mut GenContext, operation: &mut Operation) {
        Json::<T>::operation_input(ctx, operation);
        refuses(operation, 400, "MalformedJson");
        refuses(operation, 413, "PayloadTooLarge");
        refuses(operation, 415, "UnsupportedMediaType");
        refuses(operation, 422, "Refused");
    }
}

impl<T: JsonSchema> OperationInput for OptionalJsonBody<T> {
    fn operation_input(ctx: &mut GenContext, operation: &mut Operation) {
        Json::<T>::operation_input(ctx, operation);
        if let Some(ReferenceOr::Item(body)) = &mut operation.request_body {
            body.required = false;
        }
        refuses(operation, 400, "MalformedJson");
        refuses(operation, 413, "PayloadTooLarge");
        refuses(operation, 422, "Refused");
    }
}

impl<T: JsonSchema> OperationInput for QueryParams<T> {
    fn operation_input(ctx: &mut GenContext, operation: &mut Operation) {
        Query::<T>::operation_input(ctx, operation);
        refuses(operation, 400, "BadQuery");
    }
}

impl OperationInput for ApiVia {
    fn operation_input(ctx: &mut GenContext, operation: &mut Operation) {
        header::<String>(ctx, operation, "X-Askdesk-Via");
    }
}

/// An API error's replies are the shared ones its causes add: the guard's
/// (`operations::guarded`), the extractors' above, and the desk's a
/// route names.
impl OperationOutput for ApiError {
    type Inner = ();
}

/// A reply of status `N` with `T` as JSON.
pub struct Status<const N: u16, T>(pub T);

impl<const N: u16, T: serde::Serialize> axum::response::IntoResponse for Status<N, T> {
    fn into_response(self) -> axum::response::Response {
        let status = axum::http::StatusCode::from_u16(N).unwrap_or(axum::http::StatusCode::OK);
        (status, Json(self.0)).into_response()
    }
}

impl<const N: u16, T: JsonSchema> OperationOutput for Status<N, T> {
    type Inner = T;

    fn inferred_responses(
        ctx: &mut GenContext,
        operation: &mut Operation,
    ) -> Vec<(Option<StatusCode>, Response)> {
        vec![(Some(StatusCode::Code(N)), json::<T>(ctx, operation))]
    }
}

/// A reply of status `N` and no body.
pub struct Empty<const N: u16>;

impl<const N: u16> axum::response::IntoResponse for Empty<N> {
    fn into_response(self) -> axum::response::Response {
        axum::http::StatusCode::from_u16(N)
            .unwrap_or(axum::http::StatusCode::NO_CONTENT)
            .into_response()
    }
}

impl<const N: u16> OperationOutput for Empty<N> {
    type Inner = ();

    fn inferred_responses(
        _: &mut GenContext,
        _: &mut Operation,
    ) -> Vec<(Option<StatusCode>, Response)> {
        vec![(Some(StatusCode::Code(N)), Response::default())]
    }
}

impl OperationOutput for super::Document {
    type Inner = ();

    fn inferred_responses(
        ctx: &mut GenContext,
        operation: &mut Operation,
    ) -> Vec<(Option<StatusCode>, Response)> {
        let reply = json::<serde_json::Map<String, serde_json::Value>>(ctx, operation);
        vec![(Some(StatusCode::Code(200)), reply)]
    }
}

impl<T: OperationOutput> OperationOutput for Waited<T> {
    type Inner = T::Inner;

    /// What `T` answers; a refusal after the wait is the guard's.
    fn inferred_responses(
        ctx: &mut GenContext,
        operation: &mut Operation,
    ) -> Vec<(Option<StatusCode>, Response)> {
        T::inferred_responses(ctx, operation)
    }
}

/// A reply after a wait: what the call answers, or the refusal of the
/// credentials that were taken back while it waited.
pub(crate) enum Waited<T> {
    Reply(T),
    Refused(axum::response::Response),
}

impl<T: axum::response::IntoResponse> axum::response::IntoResponse for Waited<T> {
    fn into_response(self) -> axum::response::Response {
        match self {
            Self::Reply(reply) => reply.into_response(),
            Self::Refused(refused) => refused,
        }
    }
}
