/// Names that say their value is a credential: header names (`Authorization`, `X-Api-Key`),
/// body members (`password`, `client_secret`) and query parameters (`token=`, `api_key=`).
///
/// Such a value written in the file is masked where it is shown in its own place (the request
/// view, the curl command, the URL as sent); it is searched for in every other text only when it
/// is truly secret (see `Redactor`).
public enum CredentialName {
    /// The words a credential's name contains.
    static let words = ["token", "key", "secret", "password", "passwd", "pwd", "auth", "session", "signature", "credential", "cookie"]

    /// True when `name` says its value is a credential.
    public static func matches(_ name: String) -> Bool {
        let lowered = name.lowercased()
        return words.contains { lowered.contains($0) } || lowered == "sig"
    }
}
