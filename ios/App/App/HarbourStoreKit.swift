import Capacitor
import StoreKit

/// The app's own view controller: Capacitor's, plus the plugin below (plugins that are not npm
/// packages are registered by hand; cap sync lists only the packages').
class MainViewController: CAPBridgeViewController {
    override open func capacitorDidLoad() {
        bridge?.registerPluginInstance(HarbourStoreKitPlugin())
    }
}

/// StoreKit 2 for the purchase flow (src/web/platform/store-purchases.ts, issue 19): RevenueCat makes
/// the purchase, but its plugin does not hand JavaScript the signed transaction (JWS) the server
/// verifies at /api/iap/validate-receipt, and with `purchasesAreCompletedBy: MY_APP` the app finishes
/// each transaction itself, after that sync (and on error), as the spec orders.
@objc(HarbourStoreKitPlugin)
public class HarbourStoreKitPlugin: CAPPlugin, CAPBridgedPlugin {
    public let identifier = "HarbourStoreKitPlugin"
    public let jsName = "HarbourStoreKit"
    public let pluginMethods: [CAPPluginMethod] = [
        CAPPluginMethod(name: "signedTransaction", returnType: CAPPluginReturnPromise),
        CAPPluginMethod(name: "finishTransaction", returnType: CAPPluginReturnPromise),
    ]

    private var renewals: Task<Void, Never>?

    /// Renewals arrive while the app runs (and at launch) as unfinished transactions the app must
    /// finish itself (`purchasesAreCompletedBy: MY_APP`); the server hears of them from Apple's
    /// notifications and RevenueCat's webhook, not from here. A first purchase (its id is its
    /// original id) is left for the purchase flow, which finishes it after the server has it.
    override public func load() {
        renewals = Task.detached {
            for await update in Transaction.updates {
                guard case .verified(let transaction) = update, transaction.id != transaction.originalID else { continue }
                await transaction.finish()
            }
        }
    }

    deinit {
        renewals?.cancel()
    }

    /// `{ productId, transactionId? }` → `{ signedTransaction, transactionId }`: the transaction
    /// RevenueCat just reported (by its id: unfinished ones first, then the history), as Apple
    /// signed it. Without an id (a restore), the product's latest. Nulls when there is none, never
    /// another purchase's transaction in its place.
    @objc func signedTransaction(_ call: CAPPluginCall) {
        guard let productId = call.getString("productId") else {
            call.reject("Must provide productId")
            return
        }
        let wanted = call.getString("transactionId").flatMap { UInt64($0) }
        if call.getString("transactionId") != nil && wanted == nil {
            call.reject("transactionId must be a number")
            return
        }
        Task {
            var found: VerificationResult<Transaction>?
            if let wanted {
                found = await Self.transaction(withId: wanted, productId: productId, in: Transaction.unfinished)
                if found == nil { found = await Self.transaction(withId: wanted, productId: productId, in: Transaction.all) }
            } else {
                found = await Transaction.latest(for: productId)
            }
            guard let found else {
                call.resolve(["signedTransaction": NSNull(), "transactionId": NSNull()])
                return
            }
            call.resolve(["signedTransaction": found.jwsRepresentation, "transactionId": String(found.unsafePayloadValue.id)])
        }
    }

    private static func transaction(withId id: UInt64, productId: String, in results: Transaction.Transactions) async -> VerificationResult<Transaction>? {
        for await result in results where result.unsafePayloadValue.id == id && result.unsafePayloadValue.productID == productId {
            return result
        }
        return nil
    }

    /// `{ transactionId }`: finishes that transaction if it is still unfinished.
    @objc func finishTransaction(_ call: CAPPluginCall) {
        guard let transactionId = call.getString("transactionId"), let id = UInt64(transactionId) else {
            call.reject("Must provide transactionId")
            return
        }
        Task {
            for await result in Transaction.unfinished where result.unsafePayloadValue.id == id {
                await result.unsafePayloadValue.finish()
            }
            call.resolve()
        }
    }
}
