# pnginfo.py FILE: depth, palette size, IDAT bytes, filter types per row (run-length), and a
# DEFLATE token dump summary (inflate written out so that tokens can be logged).
import sys, struct, zlib, collections
def chunks(b):
    p=8
    while p<len(b):
        n,=struct.unpack('>I',b[p:p+4]); t=b[p+4:p+8]; yield t,b[p+8:p+8+n]; p+=12+n
class Bits:
    def __init__(s,d): s.d=d; s.p=0
    def bit(s):
        v=(s.d[s.p>>3]>>(s.p&7))&1; s.p+=1; return v
    def bits(s,n):
        v=0
        for i in range(n): v|=s.bit()<<i
        return v
def huff(lens):
    m={}; code=0; bl=collections.Counter(l for l in lens if l)
    nxt={}; c=0
    for L in range(1,16):
        c=(c+bl.get(L-1,0))<<1 if L>1 else 0
        nxt[L]=c
    # canonical
    c=0; nxt={}; bl[0]=0
    for L in range(1,16):
        c=(c+bl.get(L-1,0))<<1; nxt[L]=c
    for s,L in enumerate(lens):
        if L: m[(L,nxt[L])]=s; nxt[L]+=1
    return m
def dec(b,m):
    c=0;L=0
    while True:
        c=(c<<1)|b.bit(); L+=1
        if (L,c) in m: return m[(L,c)],L
LB=[3,4,5,6,7,8,9,10,11,13,15,17,19,23,27,31,35,43,51,59,67,83,99,115,131,163,195,227,258]
LE=[0]*8+[1]*4+[2]*4+[3]*4+[4]*4+[5]*4+[0]
DB=[1,2,3,4,5,7,9,13,17,25,33,49,65,97,129,193,257,385,513,769,1025,1537,2049,3073,4097,6145,8193,12289,16385,24577]
DE=[0,0,0,0]+[i//2-1 for i in range(4,30)]
def inflate(data, log):
    b=Bits(data[2:]); out=bytearray(); blocks=[]
    while True:
        final=b.bit(); bt=b.bits(2); start=b.p
        if bt==0: raise Exception('stored')
        if bt==1:
            ll=[8]*144+[9]*112+[7]*24+[8]*8; dl=[5]*30
        else:
            hl=b.bits(5)+257; hd=b.bits(5)+1; hc=b.bits(4)+4
            order=[16,17,18,0,8,7,9,6,10,5,11,4,12,3,13,2,14,1,15]
            cl=[0]*19
            for i in range(hc): cl[order[i]]=b.bits(3)
            cm=huff(cl); L=[]
            while len(L)<hl+hd:
                s,_=dec(b,cm)
                if s<16: L.append(s)
                elif s==16: L+= [L[-1]]*(3+b.bits(2))
                elif s==17: L+=[0]*(3+b.bits(3))
                else: L+=[0]*(11+b.bits(7))
            ll=L[:hl]; dl=L[hl:]
        hdr=b.p-start
        lm=huff(ll); dm=huff(dl); toks=[]
        while True:
            s,n=dec(b,lm)
            if s<256: out.append(s); toks.append(('L',s,n,len(out)-1))
            elif s==256: break
            else:
                i=s-257; l=LB[i]+b.bits(LE[i]); ds,dn=dec(b,dm); d=DB[ds]+b.bits(DE[ds])
                toks.append(('M',l,d,n+LE[i]+dn+DE[ds],len(out)))
                for k in range(l): out.append(out[-d])
        blocks.append((bt,hdr,b.p-start,toks,ll,dl))
        if final: break
    return bytes(out),blocks
if __name__=='__main__':
    f=sys.argv[1]; b=open(f,'rb').read(); idat=b''
    for t,d in chunks(b):
        if t==b'IHDR': w,h,depth,ct=struct.unpack('>IIBB',d[:10])
        if t==b'PLTE': npal=len(d)//3
        if t==b'IDAT': idat+=d
    raw,blocks=inflate(idat,True)
    assert raw==zlib.decompress(idat)
    rl=(w*depth+7)//8+1
    ft=[raw[i*rl] for i in range(h)]
    runs=[]; 
    for x in ft:
        if runs and runs[-1][0]==x: runs[-1][1]+=1
        else: runs.append([x,1])
    print(f'{f}: {w}x{h} depth {depth} palette {npal} IDAT {len(idat)} blocks {len(blocks)} filters', collections.Counter(ft))
    if '-v' in sys.argv: print(' filter runs', runs[:80])
    for bt,hdr,tot,toks,ll,dl in blocks:
        nl=sum(1 for t in toks if t[0]=='L'); nm=len(toks)-nl
        lb=sum(t[2] for t in toks if t[0]=='L'); mb=sum(t[3] for t in toks if t[0]=='M')
        dc=collections.Counter(t[2] for t in toks if t[0]=='M')
        print(f' block type {bt}: header {hdr} bits, total {tot} bits; literals {nl} ({lb} bits), matches {nm} ({mb} bits); top distances {dc.most_common(8)}')
        if '-t' in sys.argv:
            for t in toks:
                pos=t[3] if t[0]=='L' else t[4]
                print('  ', 'row',pos//rl,'col',pos%rl, t)
