//! Keywords (texto's additions): `GET /keywords`, `POST /keyword`, `PUT` and
//! `DELETE /keyword/:id`. What a keyword does when a reply starts with it is decided in
//! `store::keyword_effects`.

use axum::{
    Router,
    extract::{Path, State},
    response::Response,
    routing::{get, post, put},
};
use texto_core::{
    BuiltinKeyword, FieldError, Keyword, KeywordAction, MOST_ACTIONS, MOST_REPLY_CHARS,
    wire::{KeywordActionDto, KeywordDto, KeywordRequest, KeywordResponse, KeywordsResponse, StatusResponse},
};

use crate::{
    Error,
    http::{Accept, access::noted, auth::Caller, body::WireBody, inputs::path_id},
    state::AppState,
    store::{AccountId, KeywordChange, KeywordRule, KeywordSaved, Page, keywords::KeywordRemoved},
};

pub(crate) fn router() -> Router<AppState> {
    Router::new()
        .route("/keywords", get(all))
        .route("/keyword", post(create))
        .route("/keyword/{id}", put(update).delete(remove))
}

/// A rule as the wire shows it.
fn dto(rule: &KeywordRule) -> KeywordDto {
    KeywordDto {
        id: Some(rule.id.to_string()),
        word: Some(rule.word.as_str().to_owned()),
        reply: Some(rule.reply.clone()),
        actions: rule
            .actions
            .iter()
            .map(|action| KeywordActionDto {
                kind: action.kind().to_owned(),
                list: action.list().map(|list| list.to_string()),
                value: action.tag().map(str::to_owned),
            })
            .collect(),
        builtin: rule.builtin.map(|builtin| builtin.name().to_owned()),
        synonyms: rule.builtin.map_or_else(Vec::new, |builtin| {
            builtin.words().iter().filter(|word| **word != builtin.word()).map(|word| (*word).to_owned()).collect()
        }),
    }
}

/// The change a request asks for, checked: the word (refused if a built-in keyword answers to
/// it), the reply's length, the actions and their lists, which must be the account's.
async fn change_of(state: &AppState, account: AccountId, asked: KeywordDto) -> Result<KeywordChange, Error> {
    let mut errors = Vec::new();
    let word = match asked.word.as_deref() {
        None => None,
        Some(word) => match Keyword::parse(word, "keyword.word") {
            Ok(word) => match BuiltinKeyword::answering(&word) {
                Some(builtin) => {
                    errors.push(FieldError::new(
                        "keyword.word",
                        format!(
                            "{} is built in (the {} keyword): edit that one instead",
                            word.as_str(),
                            builtin.word()
                        ),
                    ));
                    None
                }
                None => Some(word),
            },
            Err(error) => {
                errors.push(error);
                None
            }
        },
    };
    if asked.reply.as_deref().is_some_and(|reply| reply.chars().count() > MOST_REPLY_CHARS) {
        errors.push(FieldError::new("keyword.reply", format!("at most {MOST_REPLY_CHARS} characters")));
    }
    if asked.actions.len() > MOST_ACTIONS {
        errors.push(FieldError::new("keyword.actions", format!("at most {MOST_ACTIONS} actions")));
    }
    let mut actions = Vec::new();
    for (index, action) in asked.actions.iter().enumerate() {
        let path = format!("keyword.actions[{index}]");
        match KeywordAction::parse(&action.kind, action.list.as_deref(), action.value.as_deref(), &path) {
            Ok(action) => {
                let unknown = match action.list() {
                    Some(list) => state.store.list(account, list, None, Page { start: 0, length: 0 }).await?.is_none(),
                    None => false,
                };
                if unknown {
                    errors.push(FieldError::new(format!("{path}.list"), "the account has no such list"));
                }
                actions.push(action);
            }
            Err(error) => errors.push(error),
        }
    }
    if !errors.is_empty() {
        return Err(Error::Invalid(errors));
    }
    Ok(KeywordChange { word, reply: asked.reply.map(|reply| reply.trim().to_owned()), actions: Some(actions) })
}

/// The answer to a saved keyword, or the refusal.
fn saved(accept: Accept, saved: KeywordSaved, id: Option<i64>, verb: &str) -> Result<Response, Error> {
    match saved {
        KeywordSaved::Saved(rule) => {
            let summary = format!("keyword {} {verb}", rule.word.as_str());
            let answer = accept.ok(&KeywordResponse { status: 1, message: "OK".into(), keyword: dto(&rule) });
            Ok(noted(answer, format!("keyword {}", rule.id), summary))
        }
        KeywordSaved::NotFound => Err(Error::NotFound(format!("keyword {}", id.unwrap_or_default()))),
        KeywordSaved::WordTaken => {
            Err(Error::Invalid(vec![FieldError::new("keyword.word", "the account has a keyword with this word")]))
        }
    }
}

/// `GET /keywords`: the built-in keywords, then the account's own by word.
#[utoipa::path(get, path = "/keywords", tag = "keywords",
    responses((status = 200, description = "The keywords", body = texto_core::wire::KeywordsResponse), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn all(State(state): State<AppState>, caller: Caller, accept: Accept) -> Result<Response, Error> {
    let rules = state.store.keywords(caller.account).await?;
    Ok(accept.ok(&KeywordsResponse { status: 1, message: "OK".into(), keywords: rules.iter().map(dto).collect() }))
}

/// `POST /keyword` (`{"keyword": {"word", "reply", "actions": [...]}}`).
#[utoipa::path(post, path = "/keyword", tag = "keywords", request_body = texto_core::wire::KeywordRequest,
    responses((status = 200, description = "The keyword as saved", body = texto_core::wire::KeywordResponse), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn create(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    body: WireBody,
) -> Result<Response, Error> {
    let KeywordRequest { keyword } = body.decode()?;
    if keyword.word.is_none() {
        return Err(Error::Invalid(vec![FieldError::new("keyword.word", "the keyword is needed")]));
    }
    let change = change_of(&state, caller.account, keyword).await?;
    saved(accept, state.store.create_keyword(caller.account, change).await?, None, "created")
}

/// `PUT /keyword/:id`: a word or reply left out keeps its value; the actions are those given
/// (none when left out); a built-in keyword keeps its word.
#[utoipa::path(put, path = "/keyword/{id}", tag = "keywords", request_body = texto_core::wire::KeywordRequest,
    params(("id" = String, Path, description = "The keyword's id")),
    responses((status = 200, description = "The keyword as saved", body = texto_core::wire::KeywordResponse), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn update(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    Path(id): Path<String>,
    body: WireBody,
) -> Result<Response, Error> {
    let id = path_id(&id).ok_or_else(|| Error::NotFound(format!("keyword {id}")))?;
    let KeywordRequest { keyword } = body.decode()?;
    let change = change_of(&state, caller.account, keyword).await?;
    // A join on STOP is refused (the keyword rules would not consent there either); the
    // account's keywords are read only when a join is asked.
    let joins = change.actions.iter().flatten().position(|action| matches!(action, KeywordAction::JoinList { .. }));
    if let Some(index) = joins {
        let keywords = state.store.keywords(caller.account).await?;
        if keywords.iter().any(|rule| rule.id == id && rule.builtin == Some(BuiltinKeyword::Stop)) {
            let why = "STOP takes the number off the account's messages: it cannot join a list with consent";
            return Err(Error::Invalid(vec![FieldError::new(format!("keyword.actions[{index}].type"), why)]));
        }
    }
    saved(accept, state.store.update_keyword(caller.account, id, change).await?, Some(id), "changed")
}

/// `DELETE /keyword/:id`: one of the account's own keywords (the built-in ones stay).
#[utoipa::path(delete, path = "/keyword/{id}", tag = "keywords",
    params(("id" = String, Path, description = "The keyword's id")),
    responses((status = 200, description = "Deleted", body = texto_core::wire::StatusResponse), (status = "default", description = "Error envelope", body = texto_core::wire::ErrorResponse)),
    security(("bearer" = [])))]
pub(crate) async fn remove(
    State(state): State<AppState>,
    caller: Caller,
    accept: Accept,
    Path(id): Path<String>,
) -> Result<Response, Error> {
    let id = path_id(&id).ok_or_else(|| Error::NotFound(format!("keyword {id}")))?;
    match state.store.delete_keyword(caller.account, id).await? {
        KeywordRemoved::Deleted => {}
        KeywordRemoved::BuiltIn => {
            let refusal = FieldError::new("id", "a built-in keyword cannot be deleted: edit it instead");
            return Err(Error::Invalid(vec![refusal]));
        }
        KeywordRemoved::NotFound => return Err(Error::NotFound(format!("keyword {id}"))),
    }
    Ok(noted(accept.ok(&StatusResponse::ok()), format!("keyword {id}"), format!("keyword {id} deleted")))
}
