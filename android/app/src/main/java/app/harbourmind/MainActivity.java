package app.harbourmind;

import com.getcapacitor.BridgeActivity;

public class MainActivity extends BridgeActivity {}
