import Foundation
import HammockHarness
@testable import Redaction
import ResourceEngine
import Testing

/// The redactor finds every occurrence, wherever it is and whatever bytes precede it.
@Suite struct RedactorTests {
    @Test func secretsAreFoundAtEveryPlaceAndAfterFalseStarts() {
        let redactor = Redactor(secrets: ["aab", "pässwörd", "tok-123"])
        #expect(redactor.redact("aab") == "•••")
        #expect(redactor.redact("aaab") == "a•••", "a false start on the repeated first byte")
        #expect(redactor.redact("x aab y aab") == "x ••• y •••")
        #expect(redactor.redact("ends with tok-123") == "ends with •••")
        #expect(redactor.redact("ümlaut pässwörd ümlaut") == "ümlaut ••• ümlaut")
        #expect(redactor.redact("aa") == "aa", "shorter than the secret")
        #expect(redactor.redact("") == "")
        #expect(redactor.redact("nothing here") == "nothing here")
    }

    /// In a URL's own place (the URL as sent), its user-info password and credential-named query
    /// values are masked whatever wrote them; in other text (a server's answer) only secrets are.

    @Test func urlCredentialsAreMaskedInTheURLsOwnPlaceOnly() {
        let redactor = Redactor.none
        #expect(redactor.redactURL("http://ops:hunter22@127.0.0.1/x") == "http://ops:•••@127.0.0.1/x")
        #expect(redactor.redactURL("http://127.0.0.1/x?page=2&token=abc123") == "http://127.0.0.1/x?page=2&token=•••")
        #expect(redactor.redactURL("http://127.0.0.1/no/query") == "http://127.0.0.1/no/query")
        #expect(redactor.redact("see http://ops:hunter22@127.0.0.1/x?token=abc123") == "see http://ops:hunter22@127.0.0.1/x?token=abc123", "a server's words")
    }

    /// The quick test for whether a text may hold a URL password or a credential query value
    /// says yes wherever `://` or `=` is, at the start, in the middle and at the very end.

    @Test func theURLCredentialCheckSeesEveryPlaceASchemeOrQueryCanBe() {
        let pieces = ["", "a", ":", "/", "//", ":/", "://", "=", "é", "x://y", "ab:/c", "token"]
        var texts: [String] = []
        for first in pieces { for second in pieces { for third in pieces { texts.append(first + second + third) } } }
        for text in texts {
            let expected = text.contains("://") || text.contains("=")
            #expect(Redactor.mayCarryURLCredentials(text) == expected, "\(text)")
        }
        #expect(Redactor.none.redactURL("ops:hunter22@127.0.0.1 via x://ops:hunter22@h") == "ops:hunter22@127.0.0.1 via x://ops:•••@h")
    }

    /// A body's strings are redacted with the secrets learnt while running too (read once per
    /// body); what else it says is the server's own words.

    @Test func aBodyIsRedactedWithLiveSecretsInKeysAndValues() {
        let live = LiveSecrets()
        let redactor = Redactor(secrets: ["tok-123"], live: live)
        live.add("sess-456")
        let body: JSON = ["sess-456": ["a", "x tok-123 y", "sess-456"], "plain": "see http://u:pw@h/?sig=abc", "session": "abc"]
        #expect(redactor.redact(body) == ["•••": ["a", "x ••• y", "•••"], "plain": "see http://u:pw@h/?sig=abc", "session": "abc"])
    }

    /// The disk cache redacts when it writes, not per response: what it hands back before the
    /// write and what reaches the file are redacted all the same.

    @Test func theCacheHoldsNoSecretBeforeOrAfterItsWrite() throws {
        let directory = URL(fileURLWithPath: ScratchDirectory.path("redacting-cache"))
        let disk = DiskEntityCache(directory: directory, writeDelay: 3600)
        let cache = RedactingEntityCache(disk, redactor: Redactor(secrets: ["tok-123"]))
        let echoed = Entity(content: JSON.object(["headers": ["Authorization": "Bearer tok-123"]]), timestamp: 1)
        cache.writeEntity(echoed, forKey: "k")
        let pending = try #require(cache.readEntity(forKey: "k")?.content as? JSON)
        #expect(pending == ["headers": ["Authorization": "Bearer •••"]])
        disk.flush()
        let files = try FileManager.default.contentsOfDirectory(atPath: disk.directory.path).filter { $0.hasSuffix(".json") }
        #expect(files.count == 1)
        for name in files {
            let text = try String(contentsOf: disk.directory.appendingPathComponent(name), encoding: .utf8)
            #expect(!text.contains("tok-123") && text.contains("Bearer •••"))
        }
        #expect(DiskEntityCache(directory: directory).readEntity(forKey: "k")?.content as? JSON == ["headers": ["Authorization": "Bearer •••"]])
    }

    /// What is searched for everywhere is only what is truly secret; a literal named like a
    /// credential is masked only where its body is shown (the request view, curl).

    /// Secrets learnt while running are kept per source, two generations each: however often a
    /// token rotates or a login renews, what every redaction searches does not grow; the value
    /// just replaced is still masked, older ones are not.
    @Test func liveSecretsStayBoundedAndKeepTheOneJustReplaced() {
        let live = LiveSecrets()
        let token = live.source()
        let login = live.source()
        for i in 0..<5_000 {
            live.replace(["file-token-\(i)"], for: token)
            live.replace(["login-\(i)", "Bearer login-\(i)"], for: login)
        }
        #expect(live.count <= 2 * (3 + 6), "two generations of each source's forms: \(live.count)")
        let redactor = Redactor(secrets: [], live: live)
        #expect(redactor.redact("file-token-4999 file-token-4998 file-token-4997") == "••• ••• file-token-4997")
        #expect(redactor.redact("Bearer login-4999 login-4998 login-17") == "••• ••• login-17")
        let version = live.version
        live.replace(["file-token-4999"], for: token)
        #expect(live.version == version, "the same value again changes nothing")
    }

    /// After a reload that replaces a credential, a server's echo of the old one is still masked;
    /// after the next reload, no more (nothing piles up).
}
