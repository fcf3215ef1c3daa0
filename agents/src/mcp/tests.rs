use super::*;
use serde_json::{json, Value};

fn listed(router: ToolRouter<AskDesk>) -> Vec<Value> {
    router
        .list_all()
        .iter()
        .map(|tool| serde_json::to_value(tool).expect("tool"))
        .collect()
}

#[test]
fn each_tool_is_routed_under_the_name_its_messages_use() {
    let names = |router| -> Vec<Value> {
        listed(router)
            .into_iter()
            .map(|t| t["name"].clone())
            .collect()
    };
    assert_eq!(
        names(AskDesk::tool_router()),
        [TOOL, AWAIT_ANSWER, CANCEL_ASK]
    );
    assert_eq!(
        names(AskDesk::app_tools()),
        [
            app::hosted::ANSWER_TOOL,
            app::hosted::DRAFT_TOOL,
            app::hosted::READ_TOOL,
            app::hosted::SHOW_TOOL
        ]
    );
}

#[test]
fn the_derived_schemas_say_what_the_tools_read_and_write() {
    let tools = listed(AskDesk::tool_router());
    let output = &tools[0]["outputSchema"];
    for tool in &tools {
        assert_eq!(&tool["outputSchema"], output, "{}", tool["name"]);
        assert_eq!(tool["inputSchema"]["additionalProperties"], false);
        assert!(tool.to_string().find("$ref").is_none(), "{tool}");
    }
    for waiting in &tools[1..] {
        let input = &waiting["inputSchema"];
        assert_eq!(input["required"], json!(["askId"]));
        assert_eq!(input["properties"]["askId"]["pattern"], "^[0-9a-f]{32}$");
    }
    assert_eq!(
        tools[1]["inputSchema"]["properties"]["waitSeconds"]["minimum"],
        1
    );
    assert_eq!(
        tools[0]["inputSchema"]["properties"]["waitSeconds"]["description"],
        tools[1]["inputSchema"]["properties"]["waitSeconds"]["description"]
    );
    let app = listed(AskDesk::app_tools());
    let read = &app[2]["inputSchema"]["properties"]["waitSeconds"];
    assert_eq!(read["maximum"], app::hosted::READ_WAIT_SECONDS);
    let answers = &app[0]["inputSchema"]["properties"]["answers"];
    assert_eq!(answers["items"]["required"], json!(["id"]));
    let fields = &app[3]["inputSchema"]["properties"]["fields"]["items"];
    assert_eq!(
        (&fields["minItems"], &fields["maxItems"]),
        (&json!(2), &json!(2))
    );
}
