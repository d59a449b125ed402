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
        CAPPluginMethod(name: "latestTransaction", returnType: CAPPluginReturnPromise),
        CAPPluginMethod(name: "finishTransaction", returnType: CAPPluginReturnPromise),
    ]

    /// `{ productId }` → `{ signedTransaction, transactionId }`: the latest transaction for the product, as Apple signed it; nulls when there is none.
    @objc func latestTransaction(_ call: CAPPluginCall) {
        guard let productId = call.getString("productId") else {
            call.reject("Must provide productId")
            return
        }
        Task {
            guard let result = await Transaction.latest(for: productId) else {
                call.resolve(["signedTransaction": NSNull(), "transactionId": NSNull()])
                return
            }
            call.resolve(["signedTransaction": result.jwsRepresentation, "transactionId": String(result.unsafePayloadValue.id)])
        }
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
