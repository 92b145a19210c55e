//! Team: the account's people with their role (a select) and "Remove", inviting someone by
//! email with a role (the link is shown when no email carried it), and the pending invitations.

use leptos::{prelude::*, task::spawn_local};
use texto_core::{
    Action,
    wire::{
        InvitationResponse, InvitationsResponse, StatusResponse, UserChangeDto, UserChangeRequest, UserDto,
        UserResponse, UsersResponse,
    },
};

use crate::{
    api::{ApiError, use_api},
    components::{
        errors::ErrorAlert,
        role::{RoleSelect, role_label},
        table::rows_or,
    },
    i18n::use_texts,
    session::use_session,
};

/// The team page.
#[component]
pub fn Team() -> impl IntoView {
    let t = use_texts();
    let api = use_api();
    let session = use_session();
    let version = RwSignal::new(0u32);
    let users = LocalResource::new(move || {
        version.track();
        async move { api.get::<UsersResponse>("/users").await }
    });
    let invitations = LocalResource::new(move || {
        version.track();
        async move { api.get::<InvitationsResponse>("/invitations").await }
    });
    let load_error = Signal::derive(move || users.get().and_then(Result::err));
    let (email, role) = (RwSignal::new(String::new()), RwSignal::new("sender".to_owned()));
    let error = RwSignal::new(None::<ApiError>);
    let link = RwSignal::new(None::<String>);
    let invite = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let request = UserChangeRequest {
            user: UserChangeDto {
                email: Some(email.get_untracked().trim().to_owned()),
                role: Some(role.get_untracked()),
            },
        };
        spawn_local(async move {
            match api.post::<_, InvitationResponse>("/users", &request).await {
                Ok(answer) => {
                    error.set(None);
                    email.set(String::new());
                    link.set(answer.invitation_url);
                    version.update(|v| *v += 1);
                }
                Err(e) => error.set(Some(e)),
            }
        });
    };
    let rows = move || {
        users.get().and_then(Result::ok).map(|answer| {
            rows_or(
                answer.users,
                if session.may(Action::Manage) { 4 } else { 3 },
                t().empty,
                move |user| view! { <MemberRow user version /> },
            )
        })
    };
    let pending = move || {
        let waiting = invitations.get().and_then(Result::ok).map(|answer| answer.invitations).unwrap_or_default();
        (!waiting.is_empty()).then(|| {
            let items = waiting.into_iter().map(|invitation| {
                let cancel_label = format!("{} {}", t().cancel_invitation, invitation.email);
                let address = invitation.email.clone();
                let cancel = move |_| {
                    let address = address.clone();
                    spawn_local(async move {
                        let _ = api.delete::<StatusResponse>(&format!("/invitations/{address}")).await;
                        version.update(|v| *v += 1);
                    });
                };
                view! {
                    <li>{invitation.email.clone()}" — "{role_label(t(), &invitation.role)}" "
                        <button type="button" class="small" aria-label=cancel_label on:click=cancel>{t().cancel}</button>
                    </li>
                }
            });
            view! { <h3>{t().pending_invitations}</h3><ul class="plain">{items.collect_view()}</ul> }
        })
    };
    view! {
        <h1>{move || t().team_title}</h1>
        <ErrorAlert error=load_error />
        <div class="table-wrap">
            <table class="stack">
                <thead><tr>
                    <th scope="col">{move || t().person_name}</th><th scope="col">{move || t().sign_in_email}</th>
                    <th scope="col">{move || t().role}</th>
                    <Show when=move || session.may(Action::Manage)><th scope="col">{move || t().actions}</th></Show>
                </tr></thead>
                <tbody><Suspense fallback=move || view! { <tr><td colspan="4">{t().loading}</td></tr> }>{rows}</Suspense></tbody>
            </table>
        </div>
        <Show when=move || session.may(Action::Manage)>
            <section class="card">
                <h2>{move || t().invite}</h2>
                <form on:submit=invite>
                    <div class="row">
                        <div class="field grow">
                            <label for="invite-email">{move || t().sign_in_email}</label>
                            <input id="invite-email" type="email" required prop:value=move || email.get()
                                on:input=move |ev| email.set(event_target_value(&ev)) />
                        </div>
                        <div class="field">
                            <label for="invite-role">{move || t().role}</label>
                            <RoleSelect id="invite-role" value=role />
                        </div>
                    </div>
                    <ErrorAlert error=error />
                    <button type="submit" class="primary">{move || t().invite}</button>
                </form>
                {move || link.get().map(|url| view! {
                    <div class="alert ok" role="status" data-testid="invitation-link">
                        <p>{t().invitation_link_hint}</p><p><code>{url}</code></p>
                    </div>
                })}
                <Suspense fallback=|| ()>{pending}</Suspense>
            </section>
        </Show>
    }
}

/// One person with their role and Remove.
#[component]
fn MemberRow(user: UserDto, version: RwSignal<u32>) -> impl IntoView {
    let t = use_texts();
    let api = use_api();
    let session = use_session();
    let error = RwSignal::new(None::<ApiError>);
    let role = RwSignal::new(user.role.clone());
    let id = user.id;
    Effect::new(move |previous: Option<String>| {
        let chosen = role.get();
        if previous.as_ref().is_some_and(|p| *p != chosen) {
            let request = UserChangeRequest { user: UserChangeDto { email: None, role: Some(chosen.clone()) } };
            spawn_local(async move {
                match api.put::<_, UserResponse>(&format!("/user/{id}"), &request).await {
                    Ok(_) => error.set(None),
                    Err(e) => error.set(Some(e)),
                }
            });
        }
        chosen
    });
    let remove = move |_| {
        spawn_local(async move {
            match api.delete::<StatusResponse>(&format!("/user/{id}")).await {
                Ok(_) => version.update(|v| *v += 1),
                Err(e) => error.set(Some(e)),
            }
        });
    };
    let role_name = format!("{} {}", t().role, user.email);
    let remove_name = format!("{} {}", t().remove, user.email);
    let manage = session.may(Action::Manage);
    view! {
        <tr>
            <td data-label=t().person_name class="text">{user.name.clone()}</td>
            <td data-label=t().sign_in_email class="text">{user.email.clone()}</td>
            <td data-label=t().role>
                {if manage {
                    view! { <RoleSelect value=role label=role_name /> }.into_any()
                } else {
                    role_label(t(), &user.role).into_any()
                }}
            </td>
            {manage.then(|| view! {
                <td data-label=t().actions>
                    <button type="button" class="small danger" aria-label=remove_name on:click=remove>{t().remove}</button>
                    <ErrorAlert error=error />
                </td>
            })}
        </tr>
    }
}
