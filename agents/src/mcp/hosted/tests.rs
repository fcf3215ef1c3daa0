use super::*;

fn capabilities(value: Value) -> ClientCapabilities {
    serde_json::from_value(value).expect("capabilities")
}

#[test]
fn a_client_shows_apps_when_it_declares_the_extension_with_our_type() {
    let declared = capabilities(json!({"extensions": {EXTENSION: {"mimeTypes": [MIME]}}}));
    assert!(shows_apps(&declared));
    for other in [
        json!({}),
        json!({"extensions": {EXTENSION: {}}}),
        json!({"extensions": {EXTENSION: {"mimeTypes": ["text/html"]}}}),
        json!({"extensions": {"io.modelcontextprotocol/tasks": {}}}),
    ] {
        assert!(!shows_apps(&capabilities(other.clone())), "{other}");
    }
}

#[test]
fn app_tools_are_for_the_app_alone_and_ask_user_for_both() {
    for tool in AskDesk::app_tools().list_all() {
        let meta = serde_json::to_value(&tool).expect("tool")["_meta"]["ui"].clone();
        assert_eq!(
            meta,
            json!({"resourceUri": URI, "visibility": ["app"]}),
            "{}",
            tool.name
        );
    }
    let ask = with_view(Tool::new("ask_user", "", Arc::new(JsonObject::new())));
    let meta = serde_json::to_value(&ask).expect("tool")["_meta"]["ui"].clone();
    assert_eq!(
        meta,
        json!({"resourceUri": URI, "visibility": ["model", "app"]})
    );
}

#[test]
fn chatgpt_reads_the_same_policy_under_its_own_names() {
    let meta = serde_json::to_value(resource_meta()).expect("meta");
    let ui = &meta["ui"]["csp"];
    let chatgpt = &meta["openai/widgetCSP"];
    for (ours, theirs) in [
        ("connectDomains", "connect_domains"),
        ("resourceDomains", "resource_domains"),
        ("frameDomains", "frame_domains"),
    ] {
        assert_eq!(ui[ours], chatgpt[theirs], "{theirs}");
    }
    assert_eq!(chatgpt["redirect_domains"], json!([]));
    assert_eq!(
        meta["openai/widgetPrefersBorder"],
        meta["ui"]["prefersBorder"]
    );
    assert_eq!(meta["openai/widgetDescription"], DESCRIPTION);
}

#[test]
fn without_a_hosted_bundle_the_resource_says_how_to_get_one() {
    let error = View::default().read().expect_err("no bundle");
    assert!(error.contains("pkg/hosted.js"), "{error}");
}

/// A site of the files given, by path.
struct Files(Vec<(String, Vec<u8>)>);

impl SiteFiles for Files {
    fn bytes(&self, path: &str) -> Option<&[u8]> {
        self.0
            .iter()
            .find(|(name, _)| name == path)
            .map(|(_, bytes)| bytes.as_slice())
    }

    fn stylesheet(&self) -> Option<&str> {
        None
    }
}

#[test]
fn a_bundle_that_may_not_stand_inline_is_not_served() {
    let files = Files(vec![(
        "/pkg/hosted.js".to_owned(),
        b"var s=\"</script>\";".to_vec(),
    )]);
    let error = render(Some(&files)).expect_err("not inline");
    assert!(
        error.contains("pkg/hosted.js may not stand inline"),
        "{error}"
    );
}
