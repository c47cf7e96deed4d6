//! `cardboard lsp`: a language server for rules files over standard input
//! and output, built on `lsp-server` and `lsp-types`.
//!
//! It keeps the text of every open file (full synchronisation) and answers:
//! - diagnostics as you type: on open and on every change, the errors
//!   `cardboard check` gives (or, for a file that compiles, its warnings),
//!   with ranges in UTF-16 columns and the checker's notes in the message;
//! - formatting, through [`crate::fmt::format_source`];
//! - hover on a keyword: its section of docs/language.md; on a name the
//!   file gives (declared, defined, a location or storage, a board, a
//!   named choice), what it is, where it is given and how often written;
//! - go to definition and find references of those names
//!   ([`symbols`] says where each is defined);
//! - completion from the place of the cursor ([`complete`]);
//! - document symbols, the file's outline ([`outline`]).
//!
//! ```no_run
//! cardboard::lsp::run_stdio().unwrap();
//! ```

pub mod complete;
pub mod hover;
pub mod outline;
pub mod position;
pub mod reader;
pub mod symbols;

use lsp_server::{Connection, Message, Notification, Request, RequestId, Response};
use lsp_types::notification::{
    DidChangeTextDocument, DidCloseTextDocument, DidOpenTextDocument, Notification as _,
    PublishDiagnostics,
};
use lsp_types::request::{
    Completion, DocumentSymbolRequest, Formatting, GotoDefinition, HoverRequest, References,
    Request as _,
};
use lsp_types::{
    DocumentFormattingParams, PublishDiagnosticsParams, ServerCapabilities,
    TextDocumentSyncCapability, TextDocumentSyncKind, TextEdit, Url,
};
use std::collections::HashMap;

/// The error of a server that could not keep talking to its editor.
pub type Error = Box<dyn std::error::Error + Send + Sync>;

/// What the server offers the editor.
pub fn capabilities() -> ServerCapabilities {
    ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Kind(TextDocumentSyncKind::FULL)),
        document_formatting_provider: Some(lsp_types::OneOf::Left(true)),
        definition_provider: Some(lsp_types::OneOf::Left(true)),
        completion_provider: Some(lsp_types::CompletionOptions {
            trigger_characters: Some(vec!["(".to_string(), "'".to_string()]),
            ..Default::default()
        }),
        hover_provider: Some(lsp_types::HoverProviderCapability::Simple(true)),
        references_provider: Some(lsp_types::OneOf::Left(true)),
        document_symbol_provider: Some(lsp_types::OneOf::Left(true)),
        ..Default::default()
    }
}

/// Runs the server on standard input and output until the editor asks it
/// to exit (or closes the stream).
pub fn run_stdio() -> Result<(), Error> {
    let (connection, io_threads) = Connection::stdio();
    let caps = serde_json::to_value(capabilities())?;
    connection.initialize(caps)?;
    let mut server = Server::default();
    server.serve(&connection)?;
    drop(connection);
    io_threads.join()?;
    Ok(())
}

/// The open files, by URI.
#[derive(Default)]
pub struct Server {
    files: HashMap<Url, String>,
}

impl Server {
    fn serve(&mut self, connection: &Connection) -> Result<(), Error> {
        for message in &connection.receiver {
            match message {
                Message::Request(request) => {
                    if connection.handle_shutdown(&request)? {
                        return Ok(());
                    }
                    let response = self.request(request);
                    connection.sender.send(Message::Response(response))?;
                }
                Message::Notification(n) => {
                    for out in self.notification(n) {
                        connection.sender.send(Message::Notification(out))?;
                    }
                }
                Message::Response(_) => {}
            }
        }
        Ok(())
    }

    /// The answer to one request (an error response for one not known or
    /// whose parameters do not parse).
    pub fn request(&mut self, request: Request) -> Response {
        let Request { id, method, params } = request;
        let result = match method.as_str() {
            Formatting::METHOD => parse::<DocumentFormattingParams>(&id, params)
                .map(|p| serde_json::to_value(self.format(&p.text_document.uri))),
            HoverRequest::METHOD => parse::<lsp_types::HoverParams>(&id, params).map(|p| {
                let at = p.text_document_position_params;
                let hover = self
                    .files
                    .get(&at.text_document.uri)
                    .and_then(|text| hover::hover(text, position::offset(text, at.position)));
                serde_json::to_value(hover)
            }),
            GotoDefinition::METHOD => {
                parse::<lsp_types::GotoDefinitionParams>(&id, params).map(|p| {
                    let at = p.text_document_position_params;
                    let uri = at.text_document.uri;
                    let found = self.files.get(&uri).and_then(|text| {
                        let index = symbols::Index::of(text);
                        let o = index.at(position::offset(text, at.position))?;
                        let def = index.definition(&o.key)?;
                        Some(location(&uri, text, def.at))
                    });
                    serde_json::to_value(found)
                })
            }
            References::METHOD => parse::<lsp_types::ReferenceParams>(&id, params).map(|p| {
                let at = p.text_document_position;
                let uri = at.text_document.uri;
                let found = self.files.get(&uri).and_then(|text| {
                    let index = symbols::Index::of(text);
                    let o = index.at(position::offset(text, at.position))?;
                    let def = index.definition(&o.key).map(|d| d.at);
                    let all = index
                        .references(&o.key)
                        .filter(|r| p.context.include_declaration || Some(r.at) != def)
                        .map(|r| location(&uri, text, r.at))
                        .collect::<Vec<_>>();
                    Some(all)
                });
                serde_json::to_value(found)
            }),
            DocumentSymbolRequest::METHOD => parse::<lsp_types::DocumentSymbolParams>(&id, params)
                .map(|p| {
                    let symbols = self.files.get(&p.text_document.uri).map(|text| {
                        lsp_types::DocumentSymbolResponse::Nested(outline::outline(text))
                    });
                    serde_json::to_value(symbols)
                }),
            Completion::METHOD => parse::<lsp_types::CompletionParams>(&id, params).map(|p| {
                let at = p.text_document_position;
                let text = self
                    .files
                    .get(&at.text_document.uri)
                    .map_or("", String::as_str);
                let items = complete::complete(text, position::offset(text, at.position));
                serde_json::to_value(items)
            }),
            _ => {
                return Response::new_err(
                    id,
                    lsp_server::ErrorCode::MethodNotFound as i32,
                    format!("unknown request {method}"),
                )
            }
        };
        match result {
            Ok(Ok(value)) => Response::new_ok(id, value),
            Ok(Err(e)) => Response::new_err(
                id,
                lsp_server::ErrorCode::InternalError as i32,
                e.to_string(),
            ),
            Err(response) => response,
        }
    }

    /// The notifications to send after one from the editor.
    pub fn notification(&mut self, n: Notification) -> Vec<Notification> {
        match n.method.as_str() {
            DidOpenTextDocument::METHOD => {
                let Ok(p) =
                    serde_json::from_value::<lsp_types::DidOpenTextDocumentParams>(n.params)
                else {
                    return Vec::new();
                };
                let uri = p.text_document.uri;
                self.files.insert(uri.clone(), p.text_document.text);
                vec![self.diagnostics(uri)]
            }
            DidChangeTextDocument::METHOD => {
                let Ok(p) =
                    serde_json::from_value::<lsp_types::DidChangeTextDocumentParams>(n.params)
                else {
                    return Vec::new();
                };
                let uri = p.text_document.uri;
                // Full synchronisation: the last change is the whole text.
                if let Some(change) = p.content_changes.into_iter().last() {
                    self.files.insert(uri.clone(), change.text);
                }
                vec![self.diagnostics(uri)]
            }
            DidCloseTextDocument::METHOD => {
                let Ok(p) =
                    serde_json::from_value::<lsp_types::DidCloseTextDocumentParams>(n.params)
                else {
                    return Vec::new();
                };
                self.files.remove(&p.text_document.uri);
                vec![publish(p.text_document.uri, Vec::new())]
            }
            _ => Vec::new(),
        }
    }

    fn diagnostics(&self, uri: Url) -> Notification {
        let diagnostics = self
            .files
            .get(&uri)
            .map(|text| position::check(text))
            .unwrap_or_default();
        publish(uri, diagnostics)
    }

    /// The edit that formats an open file: one edit replacing the whole
    /// text, none when it is formatted already or does not parse.
    fn format(&self, uri: &Url) -> Option<Vec<TextEdit>> {
        let text = self.files.get(uri)?;
        let formatted = crate::fmt::format_source(text, crate::fmt::DEFAULT_WIDTH).ok()?;
        if &formatted == text {
            return Some(Vec::new());
        }
        Some(vec![TextEdit {
            range: position::range(text, 0, text.len()),
            new_text: formatted,
        }])
    }
}

/// The LSP location of `span` in the file `uri`.
fn location(uri: &Url, text: &str, span: crate::diagnostic::Span) -> lsp_types::Location {
    lsp_types::Location::new(
        uri.clone(),
        position::range(text, span.start as usize, span.end as usize),
    )
}

fn publish(uri: Url, diagnostics: Vec<lsp_types::Diagnostic>) -> Notification {
    Notification::new(
        PublishDiagnostics::METHOD.to_string(),
        PublishDiagnosticsParams {
            uri,
            diagnostics,
            version: None,
        },
    )
}

/// The parameters of a request, or the error response telling they are
/// malformed.
fn parse<P: serde::de::DeserializeOwned>(
    id: &RequestId,
    params: serde_json::Value,
) -> Result<P, Response> {
    serde_json::from_value(params).map_err(|e| {
        Response::new_err(
            id.clone(),
            lsp_server::ErrorCode::InvalidParams as i32,
            e.to_string(),
        )
    })
}
