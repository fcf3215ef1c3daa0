//! Words only server-rendered parts of the pages use, in English and
//! Simplified Chinese. They are kept apart from [`crate::i18n::Words`],
//! which the browser code reads: none of it refers to these, so the
//! browser's wasm carries none of them.

use interaction::{AskStatus, Notice, Via};

pub use consent::ConsentWords;
use finished::{finished_by_en, finished_by_zh};
#[cfg(test)]
use finished::{via_en, via_zh};
pub use interaction::Lang;

/// A language's server-only words.
pub trait SpeakPage {
    /// The server-only words in this language.
    fn page(self) -> &'static PageWords;
}

impl SpeakPage for Lang {
    fn page(self) -> &'static PageWords {
        match self {
            Lang::En => &EN,
            Lang::Zh => &ZH,
        }
    }
}

/// The server-only words of one language.
pub struct PageWords {
    /// "Answered by alice in the terminal."
    /// "Answered by alice in the terminal." Its names: the person, and the
    /// agent that relayed an answer given inside its host.
    pub finished_by: fn(AskStatus, Option<&str>, Option<&str>, Via) -> String,
    pub sign_in_to_answer: &'static str,
    pub sign_in_to_answer_text: &'static str,
    pub not_for_you: fn(&str) -> String,
    pub for_people: fn(&str) -> String,
    pub signed_in_as: fn(&str) -> String,
    pub sign_out: &'static str,
    pub agent_token: &'static str,
    pub unavailable: &'static str,
    pub sign_in_title: &'static str,
    pub sign_in_text: &'static str,
    pub wrong_token: &'static str,
    /// "Sign in with id.example.com": the company's identity provider.
    pub sign_in_with: fn(&str) -> String,
    pub or_with_token: &'static str,
    pub stranger: &'static str,
    /// An agent's verified email at the identity provider: agents use the API.
    pub agent_email: &'static str,
    pub not_verified: &'static str,
    pub provider_failed: &'static str,
    pub signed_in: &'static str,
    pub continue_on: &'static str,
    pub token: &'static str,
    pub sign_in: &'static str,
    pub language: &'static str,
    pub page_not_found: &'static str,
    pub tagline: &'static str,
    pub search_all: &'static str,
    pub all_asks: &'static str,
    pub search_text: &'static str,
    pub search_agent: &'static str,
    pub search: &'static str,
    pub older: &'static str,
    pub no_matches: &'static str,
    /// "Asks are removed 90 days after they finish; 12 removed so far."
    pub retention: fn(u64, u64) -> String,
    pub notify_device: &'static str,
    pub push_subscribed: &'static str,
    pub push_denied: &'static str,
    pub push_failed: &'static str,
    pub push_unsupported: &'static str,
    pub notice: fn(Notice) -> &'static str,
    pub delivered_at: fn(&str) -> String,
    pub not_delivered: fn(u32) -> String,
    pub given_up_at: fn(&str) -> String,
    pub notifications: &'static str,
    /// What comes before the agent's name: "Asked by ".
    pub asked_by: &'static str,
    /// After the agent's name: whose token made the ask.
    pub asked_with: fn(&str) -> String,
    /// Above what the agent was doing when it asked.
    pub agent_context: &'static str,
    /// Above the box that writes into the agent's running session.
    pub session_heading: &'static str,
    /// What writing there does.
    pub session_hint: &'static str,
    /// The box's button.
    pub session_send: &'static str,
    /// "alice at 11:20" under a message sent.
    pub session_sent: fn(Option<&str>, &str) -> String,
    pub asked_at: fn(&str) -> String,
    pub expires_at: fn(&str) -> String,
    /// "If nobody answers by …, the agent goes on with:"
    pub defaults_by: fn(&str) -> String,
    pub no_such_ask_text: &'static str,
    pub hosted_without_scripts: &'static str,
    pub something_wrong: &'static str,
    pub to_waiting: &'static str,
    pub loading: &'static str,
    pub phone_link: &'static str,
    pub phone_title: &'static str,
    /// "Scan this code with your phone's camera: it signs the phone in as
    /// alice, once, until …" (the name, or `None` for the shared token).
    pub phone_scan: fn(Option<&str>, &str) -> String,
    pub phone_open_desk: &'static str,
    pub qr_alt: &'static str,
    pub copy_link: &'static str,
    pub phone_fresh: &'static str,
    /// The public URL is loopback: the URL, and what to do.
    pub phone_loopback: fn(&str) -> String,
    pub phone_loopback_how: &'static str,
    pub phone_agent: &'static str,
    pub devices: &'static str,
    pub by_token: &'static str,
    pub by_link: &'static str,
    pub this_device: &'static str,
    pub since_until: fn(&str, &str) -> String,
    pub link_title: &'static str,
    /// "This one-time link signs this device in as alice …, until …".
    pub link_text: fn(Option<&str>, &str) -> String,
    pub link_button: &'static str,
    pub link_used: &'static str,
    pub link_expired: &'static str,
    pub link_unknown: &'static str,
    pub link_unknown_text: &'static str,
    pub link_again: &'static str,
    pub sign_in_with_token: &'static str,
}

/// "1 day", "90 days".
fn plural(n: u64, unit: &str) -> String {
    if n == 1 {
        format!("1 {unit}")
    } else {
        format!("{n} {unit}s")
    }
}

/// English.
pub static EN: PageWords = PageWords {
    finished_by: finished_by_en,
    sign_in_to_answer: "Sign in to answer",
    sign_in_to_answer_text: "This desk lets only signed-in people answer.",
    not_for_you: |names| {
        format!("This ask is for {names}; only they or an admin may answer it.")
    },
    for_people: |names| format!("· for {names}"),
    signed_in_as: |name| format!("Signed in as {name}"),
    sign_out: "Sign out",
    agent_token: "That is an agent's token: agents use the API, not the desk's pages. Sign in with a person's token.",
    unavailable: "The database could not be reached; try again shortly.",
    sign_in_title: "Sign in to askdesk",
    sign_in_text: "This desk is protected. Enter your own token (from askdesk people add), or the token the server was started with.",
    wrong_token: "That token is not right. Check it and try again.",
    sign_in_with: |name| format!("Sign in with {name}"),
    or_with_token: "Or with a token:",
    stranger: "Your identity provider signed you in, but no person of this desk has that email address, so nothing was opened. Ask an admin to add you with it (askdesk people add NAME --email ADDRESS).",
    agent_email: "Your identity provider signed you in as an agent of this desk: agents use the API, not the desk's pages, so nothing was opened.",
    not_verified: "Your identity provider did not say your email address is verified, so it cannot sign you in here.",
    provider_failed: "Signing in with your identity provider did not succeed (it refused, took too long, or its answer did not check out). Try again.",
    signed_in: "Signed in",
    continue_on: "Continue",
    token: "Token",
    sign_in: "Sign in",
    language: "Language",
    page_not_found: "Page not found",
    tagline: "Questions from your agents, answered here.",
    search_all: "Search all asks, and older ones",
    all_asks: "All asks",
    search_text: "Containing",
    search_agent: "Agent",
    search: "Search",
    older: "Older asks",
    no_matches: "No ask matches.",
    retention: |keep, removed| {
        let keep = match keep {
            s if s >= 86_400 && s % 86_400 == 0 => plural(s / 86_400, "day"),
            s if s >= 3_600 && s % 3_600 == 0 => plural(s / 3_600, "hour"),
            s => plural(s, "second"),
        };
        format!("Asks are removed {keep} after they finish; {removed} removed so far.")
    },
    notify_device: "Notify this device",
    push_subscribed: "This device will be notified of new asks, even with the desk closed.",
    push_denied: "Notifications are blocked for this site; allow them in the browser's settings.",
    push_failed: "This browser could not subscribe",
    push_unsupported: "This browser cannot receive pushes.",
    notice: |event| match event {
        Notice::Created => "New ask",
        Notice::Reminder => "Reminder",
        Notice::Finished => "Ask ended",
    },
    delivered_at: |at| format!("delivered at {at}"),
    not_delivered: |attempts| match attempts {
        0 => "not sent yet".to_owned(),
        1 => "not delivered yet, 1 attempt".to_owned(),
        n => format!("not delivered yet, {n} attempts"),
    },
    given_up_at: |at| format!("given up at {at}"),
    notifications: "Notifications",
    asked_by: "Asked by ",
    asked_with: |name| format!("with {name}'s token"),
    agent_context: "What the agent was doing",
    session_heading: "Write to the agent's session",
    session_hint: "The agent reads this in its running session while the ask waits: what to do next, a correction, a detail it missed.",
    session_send: "Send to the agent",
    session_sent: |from, at| match from {
        Some(from) => format!("{from}, at {at}"),
        None => format!("at {at}"),
    },
    asked_at: |at| format!("at {at}"),
    expires_at: |at| format!("· expires at {at}"),
    defaults_by: |at| format!("If nobody answers by {at}, the agent goes on with these default answers:"),
    no_such_ask_text: "The link may be mistyped or cut short. Ask links are long on purpose: they are the only key to the questions.",
    hosted_without_scripts: "askdesk's form did not start here: this app runs no scripts. The questions are also on the desk's page and in its terminal; the agent has the link.",
    something_wrong: "Something went wrong",
    to_waiting: "Go to the waiting asks",
    loading: "Loading…",
    phone_link: "Sign in on your phone",
    phone_title: "Sign in on your phone",
    phone_scan: |who, until| {
        let who = who.map_or("the desk's admin (the server's token)".to_owned(), str::to_owned);
        format!(
            "Scan this code with your phone's camera. It signs the phone in as {who}, on one \
             device only, until {until} (ten minutes)."
        )
    },
    phone_open_desk: "This desk is open: anyone who reaches it may use it, so a phone needs no sign-in. Scan this code to open the desk on your phone.",
    qr_alt: "QR code of the link",
    copy_link: "Or copy the link",
    phone_fresh: "Each visit to this page makes a new link; an unused one simply expires.",
    phone_loopback: |url| {
        format!(
            "A phone cannot reach this link: the desk's public URL, {url}, names this computer \
             itself (or no address at all), not an address another device can open."
        )
    },
    phone_loopback_how: "On the same network, start askdesk with --addr 0.0.0.0:3000, a --token and --public-url http://<this computer's address>:3000. From anywhere, put it behind a reverse proxy with TLS (or serve https itself with --tls-cert and --tls-key) and give --public-url https://…. The README's \"A phone\" section says more.",
    phone_agent: "That is an agent's token: agents use the API, not the desk's pages, and cannot sign a phone in.",
    devices: "Signed-in devices",
    by_token: "Signed in with a token",
    by_link: "Signed in by a phone link",
    this_device: "this device",
    since_until: |since, until| format!("since {since}, until {until}"),
    link_title: "Sign in on this device",
    link_text: |who, until| {
        let who = who.map_or("the desk's admin".to_owned(), str::to_owned);
        format!(
            "This one-time link signs this device in to askdesk as {who}. It works once, until \
             {until}."
        )
    },
    link_button: "Sign in on this device",
    link_used: "This sign-in link was used already",
    link_expired: "This sign-in link has expired",
    link_unknown: "This is not a sign-in link of this desk",
    link_unknown_text: "It may be mistyped or cut short, or the person it was for was removed.",
    link_again: "Each link signs in one device, once, for ten minutes. For a new one, open \"Sign in on your phone\" on a device that is signed in.",
    sign_in_with_token: "Sign in with a token instead",
};

/// Simplified Chinese.
pub static ZH: PageWords = PageWords {
    finished_by: finished_by_zh,
    sign_in_to_answer: "登录后回答",
    sign_in_to_answer_text: "这个服务台只允许已登录的人回答。",
    not_for_you: |names| format!("这个提问是给 {names} 的；只有他们或管理员可以回答。"),
    for_people: |names| format!("· 给 {names}"),
    signed_in_as: |name| format!("已登录：{name}"),
    sign_out: "退出登录",
    agent_token: "这是智能体的令牌：智能体使用 API，而不是服务台的页面。请用个人令牌登录。",
    unavailable: "暂时无法连接数据库；请稍后再试。",
    sign_in_title: "登录 askdesk",
    sign_in_text: "这个服务台受保护。请输入你自己的令牌（由 askdesk people add 生成），或启动服务器时设置的令牌。",
    wrong_token: "令牌不正确。请检查后重试。",
    sign_in_with: |name| format!("使用 {name} 登录"),
    or_with_token: "或者使用令牌：",
    stranger: "身份提供方已确认你的身份，但这个服务台没有人使用这个电子邮件地址，因此没有登录。请让管理员用它添加你（askdesk people add NAME --email ADDRESS）。",
    agent_email: "身份提供方确认你是这个服务台的智能体：智能体使用 API，而不是服务台的页面，因此没有登录。",
    not_verified: "身份提供方没有确认你的电子邮件地址已验证，因此无法在这里登录。",
    provider_failed: "使用身份提供方登录没有成功（被拒绝、超时，或其应答未通过校验）。请重试。",
    signed_in: "已登录",
    continue_on: "继续",
    token: "令牌",
    sign_in: "登录",
    language: "语言",
    page_not_found: "找不到页面",
    tagline: "智能体的提问，在这里回答。",
    search_all: "搜索全部提问（包括更早的）",
    all_asks: "全部提问",
    search_text: "包含",
    search_agent: "智能体",
    search: "搜索",
    older: "更早的提问",
    no_matches: "没有匹配的提问。",
    retention: |keep, removed| {
        let keep = match keep {
            s if s >= 86_400 && s % 86_400 == 0 => format!("{} 天", s / 86_400),
            s if s >= 3_600 && s % 3_600 == 0 => format!("{} 小时", s / 3_600),
            s => format!("{s} 秒"),
        };
        format!("提问结束 {keep}后即被删除；至今已删除 {removed} 个。")
    },
    notify_device: "在此设备上通知我",
    push_subscribed: "即使关闭了提问台，此设备也会收到新提问的通知。",
    push_denied: "此网站的通知已被阻止；请在浏览器设置中允许。",
    push_failed: "此浏览器无法订阅",
    push_unsupported: "此浏览器无法接收推送。",
    notice: |event| match event {
        Notice::Created => "新提问",
        Notice::Reminder => "提醒",
        Notice::Finished => "提问结束",
    },
    delivered_at: |at| format!("{at} 已送达"),
    not_delivered: |attempts| match attempts {
        0 => "尚未发送".to_owned(),
        n => format!("尚未送达，已尝试 {n} 次"),
    },
    given_up_at: |at| format!("{at} 已放弃"),
    notifications: "通知",
    asked_by: "提问者：",
    asked_with: |name| format!("（使用 {name} 的令牌）"),
    agent_context: "智能体当时在做什么",
    session_heading: "写给智能体的会话",
    session_hint: "在提问等待回答期间，智能体会在其运行中的会话里读到：下一步做什么、一处更正、它漏掉的细节。",
    session_send: "发送给智能体",
    session_sent: |from, at| match from {
        Some(from) => format!("{from}，{at}"),
        None => at.to_owned(),
    },
    asked_at: |at| format!("时间：{at}"),
    expires_at: |at| format!("· {at} 过期"),
    defaults_by: |at| format!("如果到 {at} 仍无人回答，智能体将按以下默认回答继续："),
    no_such_ask_text: "链接可能输错了或不完整。提问链接故意很长：它是打开这些问题的唯一钥匙。",
    hosted_without_scripts: "askdesk 的表单没能在这里启动：这个应用不运行脚本。这些问题也在提问台的页面和终端里；智能体有链接。",
    something_wrong: "出错了",
    to_waiting: "查看等待中的提问",
    loading: "加载中…",
    phone_link: "在手机上登录",
    phone_title: "在手机上登录",
    phone_scan: |who, until| {
        let who = who.map_or("服务台管理员（服务器的令牌）".to_owned(), str::to_owned);
        format!("用手机相机扫描这个二维码，即可以 {who} 的身份登录手机；只限一台设备，{until} 前有效（十分钟）。")
    },
    phone_open_desk: "这个服务台是开放的：能访问它的人都可以使用，所以手机无需登录。扫描二维码即可在手机上打开服务台。",
    qr_alt: "链接的二维码",
    copy_link: "或者复制链接",
    phone_fresh: "每次打开这个页面都会生成新的链接；未使用的链接会自动过期。",
    phone_loopback: |url| {
        format!("手机无法打开这个链接：服务台的公开地址 {url} 指向这台电脑自身（或者根本不是一个地址），其他设备无法打开。")
    },
    phone_loopback_how: "在同一网络中：用 --addr 0.0.0.0:3000、--token 和 --public-url http://<这台电脑的地址>:3000 启动 askdesk。在任何地方：把它放在带 TLS 的反向代理后面（或用 --tls-cert 和 --tls-key 直接提供 https），并设置 --public-url https://…。详见 README 的“A phone”一节。",
    phone_agent: "这是智能体的令牌：智能体使用 API，而不是服务台的页面，也不能让手机登录。",
    devices: "已登录的设备",
    by_token: "用令牌登录",
    by_link: "通过手机链接登录",
    this_device: "本设备",
    since_until: |since, until| format!("{since} 起，{until} 止"),
    link_title: "在此设备上登录",
    link_text: |who, until| {
        let who = who.map_or("服务台管理员".to_owned(), str::to_owned);
        format!("这个一次性链接会让此设备以 {who} 的身份登录 askdesk。它只能用一次，{until} 前有效。")
    },
    link_button: "在此设备上登录",
    link_used: "这个登录链接已经用过了",
    link_expired: "这个登录链接已过期",
    link_unknown: "这不是本服务台的登录链接",
    link_unknown_text: "链接可能输错了或不完整，或者它所属的人已被移除。",
    link_again: "每个链接只能让一台设备登录一次，十分钟内有效。要获取新链接，请在已登录的设备上打开“在手机上登录”。",
    sign_in_with_token: "改用令牌登录",
};

mod consent;
mod finished;
#[cfg(test)]
mod tests;
