//! Every fixed text of the app, English then French.

/// Declares [`Texts`] with one field per key, and its English and French values.
macro_rules! texts {
    ($($key:ident: $en:expr, $fr:expr;)*) => {
        /// The fixed texts of one language.
        #[allow(missing_docs)]
        pub struct Texts { $(pub $key: &'static str,)* }
        /// English.
        pub const EN: Texts = Texts { $($key: $en,)* };
        /// French.
        pub const FR: Texts = Texts { $($key: $fr,)* };
    };
}

texts! {
    // Frame and navigation.
    skip_link: "Skip to content", "Aller au contenu";
    nav_label: "Main", "Navigation principale";
    nav_compose: "Compose", "Composer";
    nav_campaigns: "Campaigns", "Campagnes";
    nav_lists: "Lists", "Listes";
    nav_webhooks: "Webhooks", "Webhooks";
    nav_blacklist: "Blacklist", "Liste noire";
    nav_npai: "NPAI", "NPAI";
    nav_settings: "Settings", "Paramètres";
    nav_tokens: "Tokens", "Jetons";
    credits: "Credits", "Crédits";
    sign_out: "Sign out", "Se déconnecter";
    language: "Language", "Langue";
    not_found: "This page does not exist.", "Cette page n’existe pas.";
    loading: "Loading…", "Chargement…";
    saved: "Saved.", "Enregistré.";
    error_network: "The server could not be reached. Check your connection and try again.", "Le serveur est injoignable. Vérifiez votre connexion et réessayez.";
    delete: "Delete", "Supprimer";
    remove: "Remove", "Retirer";
    add: "Add", "Ajouter";
    cancel: "Cancel", "Annuler";
    previous: "Previous", "Précédent";
    next: "Next", "Suivant";
    none: "None", "Aucune";
    number: "Number", "Numéro";
    date: "Date", "Date";
    status: "Status", "Statut";
    actions: "Actions", "Actions";
    empty: "Nothing here yet.", "Rien pour l’instant.";
    // Sign in.
    sign_in_title: "Sign in to texto", "Connexion à texto";
    sign_in_intro: "Paste the API token your administrator gave you. It stays in this browser until you sign out.", "Collez le jeton d’API fourni par votre administrateur. Il reste dans ce navigateur jusqu’à la déconnexion.";
    api_token: "API token", "Jeton d’API";
    sign_in: "Sign in", "Se connecter";
    token_refused: "This token was refused. Check it and try again.", "Ce jeton a été refusé. Vérifiez-le et réessayez.";
    session_ended: "Your session ended: the token is no longer accepted. Sign in again.", "Votre session a pris fin : le jeton n’est plus accepté. Reconnectez-vous.";
    // Compose: message.
    compose_title: "Compose a campaign", "Composer une campagne";
    message: "Message", "Message";
    message_placeholder: "Write your SMS…", "Écrivez votre SMS…";
    insert_link: "Insert link", "Insérer un lien";
    link_url: "Link URL", "URL du lien";
    link_hint: "Each <-short-> in the text becomes a short link to this address, one per recipient, so clicks are counted.", "Chaque <-short-> du texte devient un lien court vers cette adresse, propre à chaque destinataire, pour compter les clics.";
    unicode_intro: "These characters switch the message to Unicode (70 characters per SMS instead of 160):", "Ces caractères font passer le message en Unicode (70 caractères par SMS au lieu de 160) :";
    replace_lookalikes: "Replace with GSM look-alikes", "Remplacer par des équivalents GSM";
    replace_cedilla: "Also replace ç with c", "Remplacer aussi ç par c";
    // Compose: push type, sender, time.
    pushtype: "Push type", "Type d’envoi";
    alert: "Alert", "Alerte";
    marketing: "Marketing", "Marketing";
    alert_explained: "Transactional (codes, reminders, notices): sent at any time, no opt-out text.", "Transactionnel (codes, rappels, avis) : envoyé à toute heure, sans mention STOP.";
    marketing_explained: "Promotional: the STOP text is added, and it only goes Monday–Saturday 08:00–20:00 (Paris), never on public holidays.", "Promotionnel : la mention STOP est ajoutée, et l’envoi n’a lieu que du lundi au samedi de 8 h à 20 h (Paris), jamais les jours fériés.";
    sender: "Sender", "Émetteur";
    sender_hint: "3 to 11 letters or digits with at least one letter, or up to 15 digits. Empty: the default short code, so replies come back.", "3 à 11 lettres ou chiffres dont au moins une lettre, ou jusqu’à 15 chiffres. Vide : le numéro court par défaut, pour recevoir les réponses.";
    send_at: "Send at", "Envoyer le";
    send_at_hint: "Paris time. Empty: now.", "Heure de Paris. Vide : maintenant.";
    send_now: "Goes now.", "Part maintenant.";
    delay_bad: "This date cannot be used: it does not exist in Paris (clock change) or is more than a year ahead.", "Cette date est inutilisable : elle n’existe pas à Paris (changement d’heure) ou dépasse un an.";
    // Compose: recipients.
    recipients: "Recipients", "Destinataires";
    send_to: "Send to", "Envoyer à";
    to_numbers: "Numbers", "Numéros";
    to_lists: "Stored lists", "Listes enregistrées";
    recipients_hint: "One number per line, or separated by commas or semicolons. National numbers use the default country.", "Un numéro par ligne, ou séparés par des virgules ou points-virgules. Les numéros nationaux prennent le pays par défaut.";
    default_country: "Default country", "Pays par défaut";
    import_csv: "Import a CSV file", "Importer un fichier CSV";
    imported_numbers: "Imported numbers", "Numéros importés";
    clear_import: "Clear the import", "Effacer l’import";
    no_lists: "No stored list yet. Create one under Lists.", "Aucune liste enregistrée. Créez-en une dans Listes.";
    contacts_word: "contacts", "contacts";
    // Compose: preview, simulation, send.
    preview: "Preview", "Aperçu";
    preview_label: "How recipients see the message", "Le message tel que les destinataires le voient";
    simulation: "Simulation", "Simulation";
    simulation_hint: "Computed in this page as you type; the server applies the same rules.", "Calculée dans la page pendant la saisie ; le serveur applique les mêmes règles.";
    total: "Total", "Total";
    sent: "Sent", "Envoyés";
    blacklisted: "Blacklisted", "Liste noire";
    duplicated: "Duplicates", "Doublons";
    npai: "NPAI", "NPAI";
    invalid: "Invalid", "Invalides";
    not_allowed: "Country not allowed", "Pays non autorisé";
    flood: "Anti-flood", "Anti-flood";
    country_limit: "Monthly country limit", "Limite mensuelle du pays";
    parts: "SMS per message", "SMS par message";
    cost: "Cost", "Coût";
    credits_after: "Credits after", "Crédits restants";
    check_with_server: "Check with server", "Vérifier avec le serveur";
    server_agrees: "The server's simulation gives the same figures.", "La simulation du serveur donne les mêmes chiffres.";
    server_differs: "The server's simulation differs:", "La simulation du serveur diffère :";
    in_page: "in the page", "dans la page";
    on_server: "on the server", "sur le serveur";
    send: "Send", "Envoyer";
    confirm_title: "Send this campaign?", "Envoyer cette campagne ?";
    confirm: "Confirm", "Confirmer";
    not_enough_credits: "Not enough credits for this campaign.", "Crédits insuffisants pour cette campagne.";
    nothing_to_send: "Write a message and add recipients first.", "Écrivez un message et ajoutez des destinataires d’abord.";
    sending: "Sending…", "Envoi…";
    accepted: "Campaign accepted.", "Campagne acceptée.";
    see_campaign: "See the campaign", "Voir la campagne";
    ticket: "Ticket", "Ticket";
    new_campaign: "New campaign", "Nouvelle campagne";
    // Campaigns.
    campaigns_title: "Campaigns", "Campagnes";
    delivered_pct: "Delivered", "Délivrés";
    campaign_title: "Campaign", "Campagne";
    created: "Created", "Créée";
    goes_at: "Sending date", "Date d’envoi";
    text: "Text", "Texte";
    lists_word: "Lists", "Listes";
    delivery_chart: "Delivery status of the sent messages", "Statut de remise des messages envoyés";
    delivered: "Delivered", "Délivrés";
    not_delivered: "Not delivered", "Non délivrés";
    expired: "Expired", "Expirés";
    network_error: "Network error", "Erreur réseau";
    stop: "STOP", "STOP";
    pending: "Waiting for a receipt", "En attente d’accusé";
    cancel_campaign: "Cancel the campaign", "Annuler la campagne";
    cancelled_notice: "The campaign is cancelled and its credits are refunded.", "La campagne est annulée et ses crédits remboursés.";
    clone: "Clone", "Dupliquer";
    refreshing: "Refreshing while the campaign is sending.", "Actualisation pendant l’envoi.";
    status_scheduled: "Scheduled", "Programmée";
    status_sending: "Sending", "En cours";
    status_sent: "Sent", "Envoyée";
    status_cancelled: "Cancelled", "Annulée";
    // Lists.
    lists_title: "Lists", "Listes";
    new_list: "New list", "Nouvelle liste";
    list_name: "List name", "Nom de la liste";
    paste_numbers: "Numbers to add", "Numéros à ajouter";
    create_list: "Create the list", "Créer la liste";
    size: "Size", "Taille";
    send_to_list: "Send to this list", "Envoyer à cette liste";
    delete_list: "Delete the list", "Supprimer la liste";
    delete_list_confirm: "Delete this list and all its contacts?", "Supprimer cette liste et tous ses contacts ?";
    add_contact: "Add a contact", "Ajouter un contact";
    info1: "Info 1", "Info 1";
    info2: "Info 2", "Info 2";
    info3: "Info 3", "Info 3";
    info4: "Info 4", "Info 4";
    edit: "Edit", "Modifier";
    edit_contact: "Edit the contact", "Modifier le contact";
    remove_duplicates: "Remove duplicates", "Retirer les doublons";
    remove_npai: "Remove NPAI numbers", "Retirer les numéros NPAI";
    search_contacts: "Search contacts", "Rechercher des contacts";
    // CSV import.
    csv_file: "CSV file", "Fichier CSV";
    csv_hint: "Excel exports work: separated by ; or , in UTF-8 or Windows-1252.", "Les exports Excel conviennent : séparateur ; ou , en UTF-8 ou Windows-1252.";
    phone_column: "Phone number column", "Colonne du numéro";
    first_row_header: "The first row holds column names", "La première ligne contient les noms de colonnes";
    info_column: "column", "colonne";
    column: "Column", "Colonne";
    preview_rows: "First rows of the file", "Premières lignes du fichier";
    import: "Import", "Importer";
    importing: "Reading the file", "Lecture du fichier";
    rejected_rows: "Rejected rows", "Lignes refusées";
    row: "Row", "Ligne";
    value: "Value", "Valeur";
    reason: "Reason", "Motif";
    download_rejected: "Download the rejected rows (CSV)", "Télécharger les lignes refusées (CSV)";
    file_unreadable: "This file could not be read as CSV.", "Ce fichier n’a pas pu être lu comme un CSV.";
    // Webhooks.
    webhooks_title: "Webhooks", "Webhooks";
    new_webhook: "New webhook", "Nouveau webhook";
    event_type: "Event type", "Type d’événement";
    url: "URL", "URL";
    secret: "Signing secret", "Secret de signature";
    secret_hint: "Optional. With a secret, each request carries X-Service-Signature for your receiver to check.", "Facultatif. Avec un secret, chaque requête porte X-Service-Signature que votre récepteur peut vérifier.";
    create_webhook: "Create the webhook", "Créer le webhook";
    last_code: "Last HTTP code", "Dernier code HTTP";
    live: "Live", "Actif";
    paused: "Paused", "En pause";
    pause: "Pause", "Mettre en pause";
    resume: "Resume", "Reprendre";
    show_log: "Request log", "Journal des requêtes";
    hide_log: "Hide the log", "Masquer le journal";
    event: "Event", "Événement";
    http_code: "HTTP code", "Code HTTP";
    latency: "Latency", "Latence";
    error: "Error", "Erreur";
    attempt: "Attempt", "Tentative";
    body: "Body", "Corps";
    failing: "Failing", "En échec";
    no_requests: "No request sent yet.", "Aucune requête envoyée pour l’instant.";
    state: "State", "État";
    state_pending: "Pending", "En attente";
    state_delivered: "Delivered", "Remis";
    state_failed: "Given up", "Abandonné";
    resend: "Resend", "Renvoyer";
    // Blacklist and NPAI.
    blacklist_title: "Blacklist", "Liste noire";
    blacklist_intro: "Numbers here never receive your campaigns.", "Les numéros de cette liste ne reçoivent jamais vos campagnes.";
    npai_title: "NPAI", "NPAI";
    npai_intro: "Numbers the operators reported as no longer assigned. They are left out of every send.", "Numéros signalés par les opérateurs comme n’étant plus attribués. Ils sont exclus de tous les envois.";
    add_number: "Number to add", "Numéro à ajouter";
    search_number: "Search a number", "Rechercher un numéro";
    search_text: "Text contains", "Le texte contient";
    from_day: "From", "Du";
    // A campaign's messages, and replies.
    messages_title: "Messages", "Messages";
    filter_status: "Filter by status", "Filtrer par statut";
    all_statuses: "All", "Tous";
    export_csv: "Export CSV", "Exporter en CSV";
    delivery_date: "Delivery date", "Date de remise";
    status_details: "Details", "Détails";
    msg_pending: "Waiting", "En attente";
    msg_sent: "With the carrier", "Chez l’opérateur";
    msg_delivered: "Delivered", "Délivré";
    msg_not_delivered: "Not delivered", "Non délivré";
    msg_npai: "Unknown number (NPAI)", "Numéro inconnu (NPAI)";
    msg_expired: "Expired", "Expiré";
    msg_rejected: "Rejected", "Rejeté";
    msg_network_error: "Network error", "Erreur réseau";
    msg_no_route: "No route", "Pas de route";
    msg_invalid_sender: "Sender refused", "Expéditeur refusé";
    msg_not_allowed: "Not allowed", "Non autorisé";
    msgd_pending: "Waiting to be handed to the carrier", "En attente de remise à l’opérateur";
    msgd_sent: "Taken by the carrier, waiting for its receipt", "Pris par l’opérateur, en attente de l’accusé";
    msgd_delivered: "Delivered to the phone", "Remis sur le téléphone";
    msgd_not_delivered: "The carrier could not deliver it", "L’opérateur n’a pas pu le remettre";
    msgd_npai: "The number does not exist", "Le numéro n’existe pas";
    msgd_expired: "Its validity ran out before it reached the phone", "Sa validité a expiré avant la remise";
    msgd_rejected: "Refused or deleted by the carrier", "Refusé ou supprimé par l’opérateur";
    msgd_network_error: "The network lost track of it", "Le réseau en a perdu la trace";
    msgd_no_route: "No route to the number's network", "Pas de route vers le réseau du numéro";
    msgd_invalid_sender: "The carrier refused the sender", "L’opérateur a refusé l’expéditeur";
    msgd_not_allowed: "Refused before it left", "Refusé avant l’envoi";
    nav_replies: "Replies", "Réponses";
    replies_title: "Replies", "Réponses reçues";
    no_replies: "No reply in this period.", "Aucune réponse sur cette période.";
    reply: "Reply", "Réponse";
    // Retention.
    retention: "Retention", "Conservation des données";
    retention_intro: "Data older than its period is removed once an hour. Counts and costs always stay.", "Les données plus anciennes que leur durée sont retirées toutes les heures. Les compteurs et les coûts restent toujours.";
    retention_messages: "Sent messages", "Messages envoyés";
    retention_messages_hint: "Their numbers and texts are masked.", "Leurs numéros et leurs textes sont masqués.";
    retention_replies: "Replies", "Réponses reçues";
    retention_replies_hint: "They are deleted.", "Elles sont supprimées.";
    retention_contacts: "List contacts", "Contacts des listes";
    retention_contacts_hint: "Contacts added longer ago are deleted from their list.", "Les contacts ajoutés avant sont retirés de leur liste.";
    retention_campaigns: "Campaign texts", "Textes des campagnes";
    retention_campaigns_hint: "Texts and senders are masked.", "Les textes et expéditeurs sont masqués.";
    keep_everything: "Keep everything", "Tout conserver";
    months: "months", "mois";
    save_retention: "Save the retention periods", "Enregistrer les durées";
    // Tokens.
    tokens_title: "API tokens", "Jetons d’API";
    tokens_hint: "Each application that calls the API gets its own token, so that you can revoke one without stopping the others.", "Chaque application qui appelle l’API a son propre jeton : vous pouvez en révoquer un sans arrêter les autres.";
    no_tokens: "No token yet.", "Aucun jeton pour l’instant.";
    token_created: "Your new token. Copy it now: it will not be shown again.", "Votre nouveau jeton. Copiez-le maintenant : il ne sera plus affiché.";
    copy: "Copy", "Copier";
    copied: "Copied", "Copié";
    done: "Done", "Terminé";
    token_name: "Name", "Nom";
    token_word: "Token", "Jeton";
    created_on: "Created", "Créé le";
    expires: "Expires", "Expire";
    token_expired: "expired", "expiré";
    allowed_addresses: "Allowed addresses", "Adresses autorisées";
    allowed_addresses_hint: "IPv4 or IPv6 addresses or ranges (203.0.113.0/24), separated by commas. Empty: any address.", "Adresses ou plages IPv4 ou IPv6 (203.0.113.0/24), séparées par des virgules. Vide : toute adresse.";
    anywhere: "Any", "Toutes";
    last_used: "Last used", "Dernière utilisation";
    create_token: "Create token", "Créer un jeton";
    expires_after: "Expires after", "Expire après";
    never: "Never", "Jamais";
    day: "day", "jour";
    days: "days", "jours";
    revoke: "Revoke", "Révoquer";
    to_day: "To", "Au";
    campaign_word: "Campaign", "Campagne";
    source: "Source", "Origine";
    source_api: "Added by you", "Ajouté par vous";
    source_stop: "STOP reply", "Réponse STOP";
    source_receipt: "Unknown number (carrier)", "Numéro inconnu (opérateur)";
    // Clicks on short links.
    link_word: "Short link", "Lien court";
    clicks_word: "Clicks", "Clics";
    clickers_word: "People", "Personnes";
    export_clickers: "Export who clicked (CSV)", "Exporter qui a cliqué (CSV)";
    stop_replies: "STOP replies", "Réponses STOP";
    // Settings.
    settings_title: "Settings", "Paramètres";
    balance_alert: "Low balance alert", "Alerte de solde bas";
    balance_alert_intro: "texto warns you once each time your balance drops below the trigger.", "texto vous prévient une fois chaque fois que votre solde passe sous le seuil.";
    alert_trigger: "Trigger (credits)", "Seuil (crédits)";
    alert_by_email: "Alert by email", "Alerte par e-mail";
    email: "Email address", "Adresse e-mail";
    alert_by_sms: "Alert by SMS", "Alerte par SMS";
    phone_number: "Phone number", "Numéro de téléphone";
    save: "Save", "Enregistrer";
    language_intro: "The app's language, remembered in this browser.", "La langue de l’application, mémorisée dans ce navigateur.";
}
