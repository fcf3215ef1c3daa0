//! The words of the OAuth consent page and of the connected applications
//! on `/phone`, in English and Simplified Chinese.

use interaction::Lang;

/// The consent page's words in one language.
pub struct ConsentWords {
    /// "Connect claude.ai to askdesk?"
    pub title: fn(&str) -> String,
    /// Said of a client known by its metadata document's web address.
    pub verified: fn(&str) -> String,
    /// Said of a registered client, whose name nobody checked.
    pub unverified: &'static str,
    pub unverified_text: &'static str,
    /// "You are signed in as alice."
    pub signed_in_as: fn(&str) -> String,
    pub may_heading: &'static str,
    pub may_ask: &'static str,
    pub may_read: &'static str,
    pub may_not: &'static str,
    /// "Your answer takes you back to claude.ai."
    pub back_to: fn(&str) -> String,
    pub allow: &'static str,
    pub deny: &'static str,
    pub refused_title: &'static str,
    /// Only a person signed in to the desk may connect an application.
    pub not_a_person: &'static str,
    /// The connected applications on `/phone`.
    pub connected: &'static str,
    pub none_connected: &'static str,
    /// "claude.ai, as claude.ai-alice, since 2026-12-07 10:00"
    pub connected_as: fn(&str, &str, &str) -> String,
    pub disconnect: &'static str,
}

impl ConsentWords {
    /// The words in `lang`.
    pub fn of(lang: Lang) -> &'static ConsentWords {
        match lang {
            Lang::En => &EN,
            Lang::Zh => &ZH,
        }
    }
}

const EN: ConsentWords = ConsentWords {
    title: |client| format!("Connect {client} to askdesk?"),
    verified: |client| {
        format!("The application is the one served at {client}: its web address is its identity.")
    },
    unverified: "Unverified name.",
    unverified_text: "The application chose this name itself when it registered; nobody has \
        checked it. Allow it only if you just started connecting it yourself.",
    signed_in_as: |who| {
        format!("You are signed in as {who}. The application will act as your agent.")
    },
    may_heading: "If you allow it, it may",
    may_ask: "ask you and the desk's people questions, as an agent of yours",
    may_read: "wait for, read and withdraw the questions it asked",
    may_not: "It may not see other agents' questions, use your token, or sign in as you. \
        You can disconnect it at any time on the phone page or with askdesk people revoke.",
    back_to: |host| format!("Your answer takes you back to {host}."),
    allow: "Allow",
    deny: "Deny",
    refused_title: "This connection cannot be made",
    not_a_person: "Only a person of this desk can connect an application. Sign in with your \
        own token or your identity provider, then start again from the application.",
    connected: "Connected applications",
    none_connected: "No application is connected as your agent.",
    connected_as: |client, agent, since| format!("{client}, as the agent {agent}, since {since}"),
    disconnect: "Disconnect",
};

const ZH: ConsentWords = ConsentWords {
    title: |client| format!("把 {client} 连接到 askdesk？"),
    verified: |client| format!("该应用由 {client} 提供：它的网址就是它的身份。"),
    unverified: "名称未经验证。",
    unverified_text: "这个名称是应用注册时自己取的，没有人核实过。只有在你刚刚亲自发起连接时才允许。",
    signed_in_as: |who| format!("你以 {who} 的身份登录。该应用将作为你的智能体行事。"),
    may_heading: "如果你允许，它可以",
    may_ask: "以你的智能体身份向你和本服务台的人提问",
    may_read: "等待、读取和撤回它提出的问题",
    may_not: "它看不到其他智能体的问题，不能使用你的令牌，也不能以你的身份登录。你可以随时在手机页面或用 askdesk people revoke 断开它。",
    back_to: |host| format!("回答后你将回到 {host}。"),
    allow: "允许",
    deny: "拒绝",
    refused_title: "无法建立此连接",
    not_a_person: "只有本服务台的人才能连接应用。请用你自己的令牌或身份提供方登录，然后从应用重新开始。",
    connected: "已连接的应用",
    none_connected: "没有应用作为你的智能体连接。",
    connected_as: |client, agent, since| format!("{client}，作为智能体 {agent}，自 {since} 起"),
    disconnect: "断开",
};

#[cfg(test)]
mod tests {
    use super::ConsentWords;
    use interaction::Lang;

    #[test]
    fn both_languages_say_each_thing() {
        for lang in [Lang::En, Lang::Zh] {
            let words = ConsentWords::of(lang);
            assert!((words.title)("claude.ai").contains("claude.ai"));
            assert!((words.back_to)("claude.ai").contains("claude.ai"));
            assert!((words.connected_as)("c", "a", "s").contains('a'));
            assert_ne!(words.allow, words.deny);
        }
        assert_ne!(
            ConsentWords::of(Lang::En).allow,
            ConsentWords::of(Lang::Zh).allow
        );
    }
}
