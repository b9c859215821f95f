import DashboardConfig
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

    @Test func urlCredentialsAreMaskedOnlyWhereTheyCanBe() {
        let redactor = Redactor.none
        #expect(redactor.redact("see http://ops:hunter22@127.0.0.1/x") == "see http://ops:•••@127.0.0.1/x")
        #expect(redactor.redact("GET /x?page=2&token=abc123") == "GET /x?page=2&token=•••")
        #expect(redactor.redact("no url, no query") == "no url, no query")
    }
}
