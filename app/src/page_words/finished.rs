//! Who finished an ask and through what, as a sentence in each language
//! ("Answered by alice in the terminal.").

use interaction::{AskStatus, Via};

pub(super) fn via_en(via: Via) -> &'static str {
    match via {
        Via::Web => "on its page",
        Via::Form => "on its page (without JavaScript)",
        Via::Tui => "in the terminal",
        Via::Api => "through the API",
        Via::Mcp => "by the agent's MCP tool",
        Via::McpClient => "in the agent's own client",
        Via::McpApp => "in askdesk's form inside the agent's app",
        Via::Slack => "with a Slack button",
        Via::Ntfy => "with an ntfy notification's button",
        Via::Push => "with a browser notification's button",
    }
}

pub(super) fn via_zh(via: Via) -> &'static str {
    match via {
        Via::Web => "在提问页面上",
        Via::Form => "在提问页面上（无 JavaScript）",
        Via::Tui => "在终端里",
        Via::Api => "通过 API",
        Via::Mcp => "由智能体的 MCP 工具",
        Via::McpClient => "在智能体自己的客户端里",
        Via::McpApp => "在智能体应用内的 askdesk 表单里",
        Via::Slack => "用 Slack 按钮",
        Via::Ntfy => "用 ntfy 通知的按钮",
        Via::Push => "用浏览器通知的按钮",
    }
}

pub(super) fn finished_by_en(
    status: AskStatus,
    by: Option<&str>,
    relayed_by: Option<&str>,
    via: Via,
) -> String {
    let done = match status {
        AskStatus::Answered => "Answered",
        AskStatus::Declined => "Declined",
        AskStatus::Cancelled => "Withdrawn",
        AskStatus::Expired | AskStatus::Pending => "Changed",
    };
    match (by, relayed_by) {
        (Some(name), _) => format!("{done} by {name} {}.", via_en(via)),
        (None, Some(agent)) => format!(
            "{done} {}, relayed by the agent {agent}: no person of this desk is named.",
            via_en(via)
        ),
        (None, None) => format!("{done} {}.", via_en(via)),
    }
}

pub(super) fn finished_by_zh(
    status: AskStatus,
    by: Option<&str>,
    relayed_by: Option<&str>,
    via: Via,
) -> String {
    let done = match status {
        AskStatus::Answered => "回答",
        AskStatus::Declined => "拒绝",
        AskStatus::Cancelled => "撤回",
        AskStatus::Expired | AskStatus::Pending => "处理",
    };
    match (by, relayed_by) {
        (Some(name), _) => format!("由 {name} {}{done}。", via_zh(via)),
        (None, Some(agent)) => format!(
            "{}{done}，由智能体 {agent} 转交：未记名本服务台的任何人。",
            via_zh(via)
        ),
        (None, None) => format!("{}{done}。", via_zh(via)),
    }
}
