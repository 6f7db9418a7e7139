package dev.rdmacm.sa;

/**
 * INTERIM: the few SA/RMPP wire constants the engine needs until the cm-protocol codecs of the
 * sa-wire branch (MadMethod, SaAttribute, RmppHeader, SaMad, SaStatus) are merged; then this class is
 * deleted and every use points at those.
 */
final class SaWireInterim
{
    static final int MGMT_CLASS_SA = 0x03;
    static final int SA_CLASS_VERSION = 2;

    static final int GET = 0x01;
    static final int SET = 0x02;
    static final int GET_TABLE = 0x12;
    static final int GET_MULTI = 0x14;
    static final int DELETE = 0x15;
    static final int RESPONSE_BIT = 0x80;

    static final int CLASS_PORT_INFO = 0x0001;
    static final int SERVICE_RECORD = 0x0031;
    static final int PATH_RECORD = 0x0035;
    static final int MULTI_PATH_RECORD = 0x003a;

    static final int RMPP_VERSION_OFFSET = 24;
    static final int RMPP_TYPE_OFFSET = 25;
    static final int RMPP_FLAGS_OFFSET = 26;
    static final int RMPP_STATUS_OFFSET = 27;
    static final int RMPP_SEGMENT_OFFSET = 28;
    static final int RMPP_PAYLOAD_LENGTH_OFFSET = 32;
    static final int RMPP_TYPE_DATA = 1;
    static final int RMPP_TYPE_ACK = 2;
    static final int RMPP_TYPE_STOP = 3;
    static final int RMPP_TYPE_ABORT = 4;
    static final int RMPP_FLAG_ACTIVE = 0x01;
    static final int RMPP_FLAG_FIRST = 0x02;
    static final int RMPP_FLAG_LAST = 0x04;

    static final int SM_KEY_OFFSET = 36;
    static final int ATTRIBUTE_OFFSET_OFFSET = 44;
    static final int COMPONENT_MASK_OFFSET = 48;
    static final int SA_DATA_OFFSET = 56;
    static final int SA_DATA_LENGTH = 200;
    /** SM_Key, AttributeOffset, Reserved and ComponentMask: the SA header counted in an RMPP PayloadLength. */
    static final int SA_HEADER_PAYLOAD = 20;

    private SaWireInterim()
    {
    }
}
