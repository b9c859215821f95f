import ResourceEngine
import Testing

/// Reading JSON as Siesta's guide reads `[String: Any]`: typed accessors on optional chains.
@Suite struct JSONAccessTests {
    let json: JSON = [
        "status": "UP", "count": 3, "ratio": 0.5, "whole": 2.0, "enabled": true, "nothing": nil,
        "items": [["id": 1], ["id": 2]], "user": ["name": "Ada"],
    ]

    @Test func typedAccessorsReadLikeTheGuide() {
        #expect(json["status"]?.string == "UP")
        #expect(json["count"]?.int == 3)
        #expect(json["whole"]?.int == 2, "a double with no fraction is an integer")
        #expect(json["ratio"]?.int == nil)
        #expect(json["ratio"]?.double == 0.5)
        #expect(json["count"]?.double == 3)
        #expect(json["enabled"]?.bool == true)
        #expect(json["items"]?.array?.count == 2)
        #expect(json["items"]?[1]?["id"]?.int == 2)
        #expect(json["user"]?.object?.keys == ["name"])
        #expect(json["user"]?["name"]?.string == "Ada")
        #expect(json["nothing"]?.isNull == true)
    }

    @Test func aWrongTypeOrAMissingMemberIsNilNotACrash() {
        #expect(json["status"]?.int == nil)
        #expect(json["count"]?.string == nil)
        #expect(json["missing"]?.string == nil)
        #expect(json["items"]?[5] == nil)
        #expect(json["status"]?["x"] == nil, "a member of a string")
    }
}
