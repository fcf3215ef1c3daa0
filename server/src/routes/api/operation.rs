//! What the OpenAPI document reads off the API's own extractors and
//! replies (`openapi::described` for the rest).

use super::{AskRead, Idempotency, Stored};
use crate::routes::openapi::described::{header, json, schema_object};
use aide::{
    generate::GenContext,
    openapi::{
        Header, HeaderStyle, Operation, ParameterSchemaOrContent, ReferenceOr, Response, StatusCode,
    },
    operation::{OperationInput, OperationOutput},
};
use indexmap::IndexMap;
use interaction::{Ask, AskCreated, IdempotencyKey};
use schemars::json_schema;

impl OperationInput for Idempotency {
    fn operation_input(ctx: &mut GenContext, operation: &mut Operation) {
        header::<IdempotencyKey>(ctx, operation, "Idempotency-Key");
    }
}

impl OperationOutput for Stored {
    type Inner = AskCreated;

    /// `201` for a new ask, `200` for the one an idempotency key made
    /// before; both say where it is.
    fn inferred_responses(
        ctx: &mut GenContext,
        operation: &mut Operation,
    ) -> Vec<(Option<StatusCode>, Response)> {
        let mut reply = json::<AskCreated>(ctx, operation);
        let location = Header {
            description: None,
            style: HeaderStyle::Simple,
            required: true,
            deprecated: None,
            format: ParameterSchemaOrContent::Schema(schema_object(
                json_schema!({"type": "string"}),
            )),
            example: None,
            examples: IndexMap::new(),
            extensions: IndexMap::new(),
        };
        reply
            .headers
            .insert("Location".to_owned(), ReferenceOr::Item(location));
        vec![
            (Some(StatusCode::Code(201)), reply.clone()),
            (Some(StatusCode::Code(200)), reply),
        ]
    }
}

impl OperationOutput for AskRead {
    type Inner = Ask;

    fn inferred_responses(
        ctx: &mut GenContext,
        operation: &mut Operation,
    ) -> Vec<(Option<StatusCode>, Response)> {
        vec![(Some(StatusCode::Code(200)), json::<Ask>(ctx, operation))]
    }
}
