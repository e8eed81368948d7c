/* block_probe.c -- FFTW c2c rate of 256-point lines (contiguous and strided)
 * on blocks of 262,144 to 16,777,216 elements, fastest of 5 per block.
 * gcc -O2 block_probe.c -o block_probe -lfftw3 -lm && ./block_probe */
#include <fftw3.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+1e-9*t.tv_nsec;}
int main(void){
  int n=256; long blocks[]={262144,2097152,8388608,16777216};
  for(int b=0;b<4;b++) for(int strided=0;strided<2;strided++){
    long e=blocks[b]; int howmany=e/n;
    fftw_complex *in=fftw_malloc(sizeof(fftw_complex)*e),*out=fftw_malloc(sizeof(fftw_complex)*e);
    fftw_plan p= strided? fftw_plan_many_dft(1,&n,howmany,in,NULL,howmany,1,out,NULL,howmany,1,FFTW_FORWARD,FFTW_MEASURE)
                        : fftw_plan_many_dft(1,&n,howmany,in,NULL,1,n,out,NULL,1,n,FFTW_FORWARD,FFTW_MEASURE);
    for(long i=0;i<e;i++){in[i][0]=i%7;in[i][1]=0;}
    fftw_execute(p); double best=1e9;
    for(int r=0;r<5;r++){double t=now();fftw_execute(p);t=now()-t;if(t<best)best=t;}
    printf("block %9ld %s  %.3e s per unit\n",e,strided?"strided   ":"contiguous",best/(e*8.0));
    fftw_destroy_plan(p);fftw_free(in);fftw_free(out);}
}
