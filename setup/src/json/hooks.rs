//! askdesk's hooks in a JSON settings file of Claude Code's shape:
//! `hooks` → an event → matcher groups → the commands each runs.

use super::{command_line_no, command_of, member_array, member_object, same};
use crate::command::{hook_command, is_askdesk_hook};
use crate::{Change, EditError, Hook, Program, Verb};
use jsonc_parser::cst::{CstArray, CstContainerNode, CstInputValue, CstNode, CstObject};

/// The key of the hooks in a settings file, and of each group's commands.
const HOOKS: &str = "hooks";

/// Fails when `hooks`, or its list for `hook`'s event, is of another kind.
pub(super) fn check(top: &CstObject, hook: &Hook, text: &str) -> Result<(), EditError> {
    if let Some(hooks) = member_object(top, HOOKS, text, HOOKS)? {
        member_array(&hooks, hook.event, text, &key(hook))?;
    }
    Ok(())
}

fn key(hook: &Hook) -> String {
    format!("{HOOKS}.{}", hook.event)
}

/// Adds askdesk's command for `hook`, or brings the one there up to date.
pub(super) fn add(
    top: &CstObject,
    hook: &Hook,
    program: &Program,
    text: &str,
) -> Result<Option<Change>, EditError> {
    let added = Ok(Some(Change::Hook(Verb::Added, *hook)));
    let Some(hooks) = member_object(top, HOOKS, text, HOOKS)? else {
        top.append(
            HOOKS,
            CstInputValue::Object(vec![(
                hook.event.to_owned(),
                CstInputValue::Array(vec![group(hook, program)]),
            )]),
        );
        return added;
    };
    let Some(groups) = member_array(&hooks, hook.event, text, &key(hook))? else {
        hooks.append(hook.event, CstInputValue::Array(vec![group(hook, program)]));
        return added;
    };
    let mut found = ours(&groups, hook, program).into_iter();
    if let Some((_, first)) = found.next() {
        let mut updated = false;
        // A second copy would ask the person twice.
        for (list, duplicate) in found {
            duplicate.remove();
            tidy(&list);
            updated = true;
        }
        for (key, value) in command(hook, program) {
            match first.get(&key) {
                Some(prop) if prop.value().is_some_and(|v| same(&v, &value)) => {}
                Some(prop) => {
                    prop.set_value(value);
                    updated = true;
                }
                None => {
                    first.append(&key, value);
                    updated = true;
                }
            }
        }
        return Ok(updated.then_some(Change::Hook(Verb::Updated, *hook)));
    }
    // A group of its own, even beside one with the same matcher: the
    // person's groups keep their layout, and removing askdesk takes out
    // only what it added.
    groups.append(group(hook, program));
    added
}

/// Takes askdesk's commands for `hook` out, and the groups, event list
/// and `hooks` that held nothing else.
pub(super) fn remove(
    top: &CstObject,
    hook: &Hook,
    program: &Program,
    text: &str,
) -> Result<Option<Change>, EditError> {
    let Some(hooks) = member_object(top, HOOKS, text, HOOKS)? else {
        return Ok(None);
    };
    let Some(groups) = member_array(&hooks, hook.event, text, &key(hook))? else {
        return Ok(None);
    };
    let found = ours(&groups, hook, program);
    if found.is_empty() {
        return Ok(None);
    }
    for (list, command) in found {
        command.remove();
        tidy(&list);
    }
    if groups.elements().is_empty() {
        if let Some(event) = hooks.get(hook.event) {
            event.remove();
        }
    }
    if hooks.properties().is_empty() {
        if let Some(hooks) = top.get(HOOKS) {
            hooks.remove();
        }
    }
    Ok(Some(Change::Hook(Verb::Removed, *hook)))
}

/// The command lines of askdesk's commands for `hook`, each with the line
/// of the file it is on.
pub(super) fn lines(
    top: &CstObject,
    hook: &Hook,
    program: &Program,
    text: &str,
) -> Result<Vec<(String, Option<usize>)>, EditError> {
    let Some(hooks) = member_object(top, HOOKS, text, HOOKS)? else {
        return Ok(Vec::new());
    };
    let Some(groups) = member_array(&hooks, hook.event, text, &key(hook))? else {
        return Ok(Vec::new());
    };
    Ok(ours(&groups, hook, program)
        .into_iter()
        .filter_map(|(_, command)| Some((command_of(&command)?, command_line_no(&command, text))))
        .collect())
}

/// askdesk's commands for `hook` among `groups`: each with the list it is
/// in.
fn ours(groups: &CstArray, hook: &Hook, program: &Program) -> Vec<(CstArray, CstObject)> {
    let mut found = Vec::new();
    for group in groups.elements().iter().filter_map(CstNode::as_object) {
        let Some(list) = group.get(HOOKS).and_then(|p| p.value()?.as_array()) else {
            continue;
        };
        for command in list.elements().iter().filter_map(CstNode::as_object) {
            if command_of(&command).is_some_and(|line| is_askdesk_hook(&line, program, hook)) {
                found.push((list.clone(), command));
            }
        }
    }
    found
}

/// Drops the group whose command list askdesk just emptied.
fn tidy(list: &CstArray) {
    if !list.elements().is_empty() {
        return;
    }
    let Some(CstContainerNode::ObjectProp(prop)) = list.parent() else {
        return;
    };
    let Some(CstContainerNode::Object(group)) = prop.parent() else {
        return;
    };
    // A group removed already (two of askdesk's commands were in it) has
    // no parent left.
    if group.parent().is_some_and(|groups| groups.is_array()) {
        group.remove();
    }
}

/// A matcher group holding askdesk's command for `hook`.
fn group(hook: &Hook, program: &Program) -> CstInputValue {
    let mut group = Vec::new();
    if let Some(matcher) = hook.matcher {
        group.push(("matcher".to_owned(), CstInputValue::from(matcher)));
    }
    let list = CstInputValue::Array(vec![CstInputValue::Object(command(hook, program))]);
    group.push((HOOKS.to_owned(), list));
    CstInputValue::Object(group)
}

/// askdesk's command for `hook`, as the product's settings describe one.
fn command(hook: &Hook, program: &Program) -> Vec<(String, CstInputValue)> {
    vec![
        ("type".to_owned(), CstInputValue::from("command")),
        (
            "command".to_owned(),
            CstInputValue::from(hook_command(program, hook)),
        ),
        ("timeout".to_owned(), CstInputValue::from(hook.timeout)),
    ]
}
