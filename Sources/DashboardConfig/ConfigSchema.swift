import DashboardKeys
import ResourceEngine

/// The config as a JSON Schema (draft 2020-12), for editors that complete and check YAML
/// (`hammock schema`; yaml-language-server reads it through the `$schema` line `hammock init`
/// writes). Every object the loader checks the keys of lists exactly those keys, from the same
/// lists, and refuses others; what the loader reads more finely (durations, paths, expressions)
/// the schema only types. The loader stays the judge: the schema helps while typing.
public enum ConfigSchema {
    /// The schema's `$id`.
    public static let id = "https://hammock.invalid/schema/hammock-1.json"

    /// The whole schema.
    public static var json: JSON {
        var root: JSONObject = [
            "$schema": "https://json-schema.org/draft/2020-12/schema", "$id": .string(id), "title": "Hammock config",
            "description": "A Hammock dashboard: the service, the panes and how they show. Reference: README.md, Your own APIs.",
        ]
        for (key, value) in object(ConfigLoader.topKeys, top, required: ["panes"]).members { root[key] = value }
        return .object(root)
    }

    // MARK: Pieces

    static func text(_ description: String) -> JSON { ["type": "string", "description": .string(description)] }
    static func integer(_ description: String, _ range: ClosedRange<Int>) -> JSON {
        ["type": "integer", "minimum": .int(range.lowerBound), "maximum": .int(range.upperBound), "description": .string(description)]
    }
    static func boolean(_ description: String) -> JSON { ["type": "boolean", "description": .string(description)] }
    static func oneOf(_ names: [String], _ description: String) -> JSON {
        ["type": "string", "enum": .array(names.map(JSON.string)), "description": .string(description)]
    }
    static func duration(_ description: String) -> JSON {
        ["type": ["string", "number"], "description": .string(description + " (250ms, 5s, 2m, 1h; a number is seconds)")]
    }
    static let headers: JSON = [
        "type": "object", "additionalProperties": ["type": "string"],
        "description": "Request headers: name → value (${VAR} and ${file:PATH} filled in)",
    ]
    static let anything: JSON = ["description": "Any YAML value (an object, a list, text, a number)"]
    static func list(of item: JSON, _ description: String) -> JSON {
        ["type": "array", "items": item, "description": .string(description)]
    }
    static func oneOrMany(_ item: JSON, _ description: String) -> JSON {
        ["anyOf": [item, ["type": "array", "items": item]], "description": .string(description)]
    }

    /// An object of exactly `keys`, each described by `fragments` (a key without one is left
    /// out, which the schema test catches).
    static func object(_ keys: [String], _ fragments: [String: JSON], required: [String] = [], description: String? = nil) -> JSONObject {
        var properties = JSONObject()
        for key in keys { if let fragment = fragments[key] { properties[key] = fragment } }
        var object: JSONObject = ["type": "object", "properties": .object(properties), "additionalProperties": false]
        if !required.isEmpty { object["required"] = .array(required.map(JSON.string)) }
        if let description { object["description"] = .string(description) }
        return object
    }

    static func objectJSON(_ keys: [String], _ fragments: [String: JSON], required: [String] = [], description: String? = nil) -> JSON {
        .object(object(keys, fragments, required: required, description: description))
    }

    // MARK: Sections

    static var top: [String: JSON] {
        [
            "title": text("The dashboard's title (default: the file's name)"),
            "service": service(ConfigLoader.serviceKeys, "The default service: its base URL and what every request to it carries"),
            "services": [
                "type": "object", "additionalProperties": service(ConfigLoader.namedServiceKeys, "A named service"),
                "description": "Named services (letters, digits, - and _): panes choose one with service: NAME",
            ],
            "configure": list(of: objectJSON(ConfigLoader.blockKeys, block), "Configuration by URL pattern, in order"),
            "alerts": alerts("Every pane's alerts (each pane may override)"),
            "panes": ["type": "array", "minItems": 1, "items": objectJSON(ConfigLoader.paneKeys, pane, required: ["title"]), "description": "The panes, in order"],
            "layout": objectJSON(
                ConfigLoader.layoutKeys,
                ["columns": ["anyOf": [["type": "integer", "minimum": 1, "maximum": 12], ["const": "auto"]], "description": "Columns of panes, or auto by width"]]),
            "mouse": boolean("Clicks and the wheel in the dashboard (default true)"),
            "connectivity": oneOrMany(["type": "string"], "URLs that say this machine has the network: when all fail, no pane alert fires"),
            "quiet": quiet("When no pane raises an alert (a pane's own quiet: replaces it)"),
            "alertmanager": objectJSON(
                ConfigLoader.alertmanagerKeys,
                ["url": text("Alertmanager's base URL (firing alerts go to its /api/v2/alerts)"),
                 "labels": ["type": "object", "additionalProperties": ["type": "string"], "description": "Labels added to every alert"],
                 "resend": duration("How often a firing alert is sent again (default 1m)")], required: ["url"]),
            "implicitDependencies": objectJSON(
                ConfigLoader.implicitDependencyKeys,
                ["login": boolean("A service's panes are blocked by its failing login (default true)"),
                 "origin": boolean("An origin's panes are blocked by the first of them it refuses (default true)")]),
            "theme": [
                "anyOf": [
                    oneOf(ThemeSpec.Base.allCases.map(\.rawValue), "A shipped theme"),
                    objectJSON(
                        ["base"] + ThemeSpec.Role.allCases.map(\.rawValue),
                        Dictionary(uniqueKeysWithValues: [("base", oneOf(ThemeSpec.Base.allCases.map(\.rawValue), "The theme to start from"))]
                            + ThemeSpec.Role.allCases.map { ($0.rawValue, integer("A 256-colour index", 0...255)) })),
                ],
                "description": "The colours states are drawn in",
            ],
            "keys": objectJSON(
                KeyAction.configurable.map(\.name),
                Dictionary(uniqueKeysWithValues: KeyAction.configurable.map { ($0.name, oneOrMany(["type": ["string", "integer"]], "Its keys ([] for none)")) }),
                description: "Each action's keys, replacing its standard ones"),
        ]
    }

    static func service(_ keys: [String], _ description: String) -> JSON {
        objectJSON(
            keys,
            [
                "baseURL": text("The base URL panes' resources are relative to (http or https)"),
                "headers": headers,
                "expiration": duration("How long data stays fresh"),
                "retry": duration("How soon a failed load is retried"),
                "timeout": duration("How long a request may take"),
                "transformers": list(of: oneOf(["json", "text"], "A standard transformer"), "The standard parsers the service keeps"),
                "tls": objectJSON(
                    ConfigLoader.tlsKeys,
                    [
                        "ca": text("A CA bundle (PEM) to trust"), "clientCert": text("A client certificate (PEM)"), "clientKey": text("Its key (PEM)"),
                        "clientKeyPassword": text("The key's passphrase"), "insecure": boolean("Do not check the server's certificate"),
                    ]),
                "redirects": integer("Redirects followed (within the origin)", 0...50),
                "auth": auth,
                "cookies": boolean("Keep cookies the service sets"),
                "dependsOn": oneOrMany(["type": "string"], "Panes every pane of the service waits on"),
            ], description: description)
    }

    static var auth: JSON {
        let userPassword = objectJSON(["user", "password"], ["user": text("The user"), "password": text("The password (${VAR}, ${file:PATH})")])
        return objectJSON(
            ConfigLoader.authKinds,
            [
                "basic": userPassword, "digest": userPassword,
                "bearer": ["anyOf": [["type": "string"], objectJSON(["file"], ["file": text("A file holding the token, read again when it changes")])], "description": "A bearer token"],
                "login": objectJSON(
                    ConfigLoader.loginKeys,
                    [
                        "resource": text("Where to log in"), "method": oneOf(RequestMethod.allCases.map(\.httpName), "Its method"), "body": anything,
                        "token": text("Where the token is in the answer (a path)"), "header": text("The header it goes in"), "scheme": text("Before it (Bearer)"),
                        "refreshOn": list(of: ["type": "integer"], "Statuses that mean log in again"),
                    ]),
                "oauth2": objectJSON(
                    ConfigLoader.oauth2Keys,
                    [
                        "tokenURL": text("The token endpoint"), "clientId": text("The client"), "clientSecret": text("Its secret"),
                        "scopes": oneOrMany(["type": "string"], "Scopes"), "audience": text("The audience"),
                    ]),
            ], description: "One kind of authentication")
    }

    static var block: [String: JSON] {
        [
            "pattern": text("URLs this block configures (** and * wildcards)"), "service": text("The service whose URLs it matches"),
            "methods": oneOrMany(oneOf(RequestMethod.allCases.map(\.httpName), "A method"), "Only requests with these methods"),
            "expiration": duration("How long data stays fresh"), "retry": duration("How soon a failed load is retried"),
            "timeout": duration("How long a request may take"), "headers": headers, "pipeline": pipeline,
        ]
    }

    static var pipeline: JSON {
        [
            "type": "object", "propertyNames": ["enum": .array(StageName.allCases.map { .string($0.rawValue) })],
            "additionalProperties": ["type": ["array", "null"], "items": ["type": ["string", "object"]]],
            "description": "Transformers by stage (json, text, select: PATH, count…)",
        ]
    }

    static func alerts(_ description: String) -> JSON {
        objectJSON(
            ConfigLoader.alertKeys,
            [
                "failAfter": integer("Failed probes in a row before it fails", 1...1000), "recoverAfter": integer("Good probes in a row before it recovers", 1...1000),
                "bell": boolean("Ring the terminal's bell"), "notify": boolean("A desktop notification"),
                "exec": oneOrMany(["type": "string"], "A command to run"), "timeout": duration("How long the command may run"),
                "webhook": [
                    "anyOf": [["type": "string"], objectJSON(ConfigLoader.webhookKeys, ["url": text("Where to post"), "headers": headers, "body": anything])],
                    "description": "Post the alert",
                ],
                "remind": duration("Alert again while it fails"), "onResolved": boolean("Alert when it recovers too"),
                "onChange": ["anyOf": [["type": "boolean"], ["type": "string"], ["type": "array", "items": ["type": "string"]]], "description": "Alert when the content (or these paths) changes"],
            ], description: description)
    }

    static func quiet(_ description: String) -> JSON {
        let window = objectJSON(
            ConfigLoader.quietKeys,
            ["days": oneOrMany(oneOf(QuietWindow.dayNames, "A day"), "Days it starts on (default every day)"),
             "from": text("Start, like 02:00"), "to": text("End, like 03:00 (before from: past midnight)"),
             "zone": text("A time zone (UTC, Europe/Berlin; default this machine's)")], required: ["from", "to"])
        return oneOrMany(window, description)
    }

    static var displayField: JSON {
        let colors: JSON = ["type": "object", "additionalProperties": ["type": "string"], "description": "Value → colour"]
        return [
            "anyOf": [
                ["type": "string"],
                objectJSON(
                    ConfigLoader.displayFieldKeys,
                    [
                        "path": text("A JSON path"), "label": text("Its heading"), "format": oneOf(ValueFormat.allCases.map(\.rawValue), "How the value reads"),
                        "decimals": integer("Places", 0...12), "width": ["type": ["string", "integer"], "description": "natural, fill, 12 or 30% (columns only)"],
                        "colors": colors,
                    ], required: ["path"]),
            ],
        ]
    }

    static var pane: [String: JSON] {
        [
            "title": text("The pane's title (unique)"), "resource": text("A path under the base URL, or a URL"),
            "params": ["type": "object", "additionalProperties": ["type": ["string", "number", "boolean"]], "description": "Query parameters"],
            "method": oneOf(RequestMethod.allCases.map(\.httpName) + RequestMethod.allCases.map(\.rawValue), "The request's method"),
            "body": anything, "every": duration("How often it is probed"),
            "show": oneOf(ShowMode.allCases.map(\.rawValue), "How it shows its data"),
            "fields": oneOrMany(displayField, "show: fields — the paths shown"), "columns": oneOrMany(displayField, "show: table — the columns"),
            "select": text("A JSON path applied for display"),
            "overlay": list(of: oneOf(OverlayRule.allCases.map(\.rawValue), "A rule"), "The status overlay's rules, in order"),
            "history": integer("Probes kept", 2...10_000), "expect": oneOrMany(["type": "string"], "Conditions every answer must meet"),
            "headers": headers, "timeout": duration("How long a request may take"),
            "auth": ["const": "none", "description": "none: this pane sends without the service's auth"],
            "service": text("The named service it uses"), "pipeline": pipeline,
            "format": oneOf(ValueFormat.allCases.map(\.rawValue), "How the value reads"), "decimals": integer("Places", 0...12),
            "thresholds": objectJSON(["warn", "fail"], ["warn": text("When it is degraded (> 0.8)"), "fail": text("When it fails (> 0.95)")]),
            "alerts": alerts("The pane's alerts, over the file's"), "backoff": duration("The longest wait between failed probes"),
            "size": ["anyOf": [["type": "integer", "minimum": 1, "maximum": 12], ["const": "full"]], "description": "Columns it spans, or full"],
            "tags": oneOrMany(["type": "string", "pattern": .string(PaneSpec.tagPattern)], "Names to choose it by (/#name, --tag)"),
            "dependsOn": oneOrMany(["type": "string"], "Panes it waits on: while one fails, it is blocked, not alerting"),
            "quiet": quiet("When it raises no alert (over the file's)"),
        ]
    }
}
